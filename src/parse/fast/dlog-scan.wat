;; The dlog scanner (dlog-scan.ts): the usual E and S lines of a chunk, parsed
;; in WebAssembly into record columns, with names numbered through a table of
;; name bytes the JavaScript side fills. Every line it does not take the same
;; way as DlogBufferParser.timed would (any other shape, byte or number form)
;; it hands back untouched, and the parser reads that line itself: the
;; records are the same by construction, as long as what this takes, it
;; takes exactly as `timed` does. After editing: `node scripts/wasm.mjs`
;; (writes dlog-scan-wasm.ts; a test checks that it is up to date).
;;
;; Memory (bytes): [0, IN_MAX) the chunk's lines, copied in; then the columns
;; of up to BATCH records (code i32, t f64, v f64); the name table (4096
;; slots of 32 bytes: hash, kind << 16 | length, arena offset, code, the
;; entry that followed it last); the arena of name bytes; powers of ten; the
;; results of a scan.
(module
  (memory (export "memory") 80)
  (global $CODE i32 (i32.const 4194304))
  (global $T i32 (i32.const 4210688))
  (global $V i32 (i32.const 4243456))
  (global $TABLE i32 (i32.const 4276224))
  (global $ARENA i32 (i32.const 4407296))
  (global $ARENA_END i32 (i32.const 4669440))
  (global $P10 i32 (i32.const 4669440))
  (global $P10I i32 (i32.const 4669632))
  (global $MAX_NAMES i32 (i32.const 3072))

  (global $arena (mut i32) (i32.const 4407296))
  ;; The entry of the last record scanned (0: none): its successor is tried first, as NamePredictor does.
  (global $prev (mut i32) (i32.const 0))
  ;; The last timestamp field taken in this scan (where, its length, its value; −1: none): states logged
  ;; together share it, so one with the same bytes has the same value (DlogBufferParser.tsAt).
  (global $tsAt (mut i32) (i32.const -1))
  (global $tsLen (mut i32) (i32.const 0))
  (global $tsValue (mut f64) (f64.const 0))
  (global $names (mut i32) (i32.const 0))
  ;; The results of scan, seven i32 at RESULTS: where it stopped, the lines it took, the records it wrote, and the
  ;; name it did not know (kind, start, end, hash). (Read through a typed array: an exported global's value costs a
  ;; call into the runtime, and a scan may end after a few lines: at each `I` record.)
  (global $RESULTS i32 (i32.const 4669712))
  ;; $num's: whether it took the field, and where it stopped.
  (global $ok (mut i32) (i32.const 0))
  (global $end (mut i32) (i32.const 0))

  ;; 10^0 … 10^8 as integers; 10^0 … 10^22 as doubles, each exact (10^22 = 2^22 · 5^22, 5^22 < 2^53): the same as
  ;; the parser's POW10.
  (func $init
    (local $k i32) (local $p f64) (local $q i64)
    (local.set $q (i64.const 1))
    (loop $ints
      (i64.store (i32.add (global.get $P10I) (i32.shl (local.get $k) (i32.const 3))) (local.get $q))
      (local.set $q (i64.mul (local.get $q) (i64.const 10)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $ints (i32.le_u (local.get $k) (i32.const 8))))
    (local.set $k (i32.const 0))
    (local.set $p (f64.const 1))
    (loop $next
      (f64.store (i32.add (global.get $P10) (i32.shl (local.get $k) (i32.const 3))) (local.get $p))
      (local.set $p (f64.mul (local.get $p) (f64.const 10)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $next (i32.le_u (local.get $k) (i32.const 22)))))
  (start $init)

  ;; Forget every name (another intake numbers them).
  (func (export "reset")
    (memory.fill (global.get $TABLE) (i32.const 0) (i32.const 131072))
    (global.set $prev (i32.const 0))
    (global.set $arena (global.get $ARENA))
    (global.set $names (i32.const 0)))

;; The number at i: a sign, then digits with at most one '.', as `timed`'s fast path reads it. $ok is 1 when
  ;; that path would take it (a digit at least, at most 19 digits, the digits' integer at most 2^53 − 1, at most
  ;; 22 after the point); $end is where the digits stopped (when $ok). The value is the digits' integer, divided by
  ;; the power of ten of the fraction's digits when there are any, negated after a '-': `timed`'s operations, in
  ;; its order. The digits are read up to eight at a time: the bytes of a word that are digits, up to the first
  ;; that is not, as one number (SWAR: parse_eight_digits_unrolled of simdjson, on the digits moved to the word's top).
  (func $num (param $i i32) (result f64)
    (local $c i32) (local $neg i32) (local $dot i32) (local $nd i32) (local $k i32) (local $m i64) (local $x i64) (local $frac i32) (local $r f64)
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 45))
      (then (local.set $neg (i32.const 1)) (local.set $i (i32.add (local.get $i) (i32.const 1))))
      (else (if (i32.eq (local.get $c) (i32.const 43))
        (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
    (local.set $dot (i32.const -1))
    (global.set $ok (i32.const 0))
    (block $stop
      (loop $word
        ;; Digit bytes become 0–9; k: how many lead the word (a byte is not a digit if its top bit ends up set).
        (local.set $x (i64.xor (i64.load (local.get $i)) (i64.const 0x3030303030303030)))
        (local.set $k (i32.wrap_i64 (i64.shr_u (i64.ctz (i64.and
          (i64.or (i64.add (i64.and (local.get $x) (i64.const 0x7F7F7F7F7F7F7F7F)) (i64.const 0x7676767676767676)) (local.get $x))
          (i64.const 0x8080808080808080))) (i64.const 3))))
        (if (local.get $k)
          (then
            (local.set $nd (i32.add (local.get $nd) (local.get $k)))
            (if (i32.gt_u (local.get $nd) (i32.const 19)) (then (return (f64.const 0))))
            ;; The k digits at the word's top, zeros below: their number.
            (local.set $x (i64.shl (local.get $x) (i64.extend_i32_u (i32.shl (i32.sub (i32.const 8) (local.get $k)) (i32.const 3)))))
            (local.set $x (i64.shr_u (i64.mul (local.get $x) (i64.const 2561)) (i64.const 8)))
            (local.set $x (i64.shr_u (i64.mul (i64.and (local.get $x) (i64.const 0x00FF00FF00FF00FF)) (i64.const 6553601)) (i64.const 16)))
            (local.set $x (i64.shr_u (i64.mul (i64.and (local.get $x) (i64.const 0x0000FFFF0000FFFF)) (i64.const 42949672960001)) (i64.const 32)))
            (local.set $m (i64.add (i64.mul (local.get $m) (i64.load (i32.add (global.get $P10I) (i32.shl (local.get $k) (i32.const 3))))) (local.get $x)))
            (local.set $i (i32.add (local.get $i) (local.get $k)))
            (br_if $word (i32.eq (local.get $k) (i32.const 8)))))
        ;; The byte after the digits: the first point goes on to the fraction; anything else ends the number.
        (br_if $stop (i32.or (i32.ne (i32.load8_u (local.get $i)) (i32.const 46)) (i32.ge_s (local.get $dot) (i32.const 0))))
        (local.set $dot (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $word)))
    (global.set $end (local.get $i))
    (local.set $frac (select (i32.sub (i32.sub (local.get $i) (local.get $dot)) (i32.const 1)) (i32.const 0) (i32.ge_s (local.get $dot) (i32.const 0))))
    (global.set $ok (i32.and
      (i32.ge_u (local.get $nd) (i32.const 1))
      (i32.and (i64.le_u (local.get $m) (i64.const 9007199254740991)) (i32.le_u (local.get $frac) (i32.const 22)))))
    (local.set $r (f64.convert_i64_u (local.get $m)))
    (if (i32.gt_u (local.get $frac) (i32.const 0))
      (then (local.set $r (f64.div (local.get $r) (f64.load (i32.add (global.get $P10) (i32.shl (local.get $frac) (i32.const 3))))))))
    (if (result f64) (local.get $neg) (then (f64.neg (local.get $r))) (else (local.get $r))))

  ;; Whether the len bytes at a and b are the same.
  (func $same (param $a i32) (param $b i32) (param $len i32) (result i32)
    (block $bytes
      (loop $word
        (br_if $bytes (i32.lt_u (local.get $len) (i32.const 4)))
        (if (i32.ne (i32.load (local.get $a)) (i32.load (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 4)))
        (local.set $b (i32.add (local.get $b) (i32.const 4)))
        (local.set $len (i32.sub (local.get $len) (i32.const 4)))
        (br $word)))
    (block $done
      (loop $byte
        (br_if $done (i32.eqz (local.get $len)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $len (i32.sub (local.get $len) (i32.const 1)))
        (br $byte)))
    (i32.const 1))

  ;; The slot of name (kind, hash h, the len bytes at s): the one holding it, or the empty one where it would go.
  (func $slot (param $kind i32) (param $h i32) (param $s i32) (param $len i32) (result i32)
    (local $slot i32) (local $p i32) (local $key i32)
    (local.set $key (i32.or (i32.shl (local.get $kind) (i32.const 16)) (local.get $len)))
    (local.set $slot (i32.and (local.get $h) (i32.const 4095)))
    (loop $probe
      (local.set $p (i32.add (global.get $TABLE) (i32.shl (local.get $slot) (i32.const 5))))
      (if (i32.eqz (i32.load offset=4 (local.get $p))) (then (return (local.get $p))))
      (if (i32.and (i32.eq (i32.load (local.get $p)) (local.get $h)) (i32.eq (i32.load offset=4 (local.get $p)) (local.get $key)))
        (then (if (call $same (i32.load offset=8 (local.get $p)) (local.get $s) (local.get $len)) (then (return (local.get $p))))))
      (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (i32.const 4095)))
      (br $probe))
    (unreachable))

  ;; Number the name the last scan stopped at (SCAN_NAME: its kind, bytes and hash in RESULTS) as code. 0: the
  ;; table is full.
  (func (export "add") (param $code i32) (result i32)
    (local $kind i32) (local $s i32) (local $len i32) (local $h i32) (local $p i32)
    (local.set $kind (i32.load offset=12 (global.get $RESULTS)))
    (local.set $s (i32.load offset=16 (global.get $RESULTS)))
    (local.set $len (i32.sub (i32.load offset=20 (global.get $RESULTS)) (local.get $s)))
    (local.set $h (i32.load offset=24 (global.get $RESULTS)))
    (if (i32.or (i32.ge_u (global.get $names) (global.get $MAX_NAMES))
                (i32.gt_u (i32.add (global.get $arena) (local.get $len)) (global.get $ARENA_END)))
      (then (return (i32.const 0))))
    (local.set $p (call $slot (local.get $kind) (local.get $h) (local.get $s) (local.get $len)))
    (memory.copy (global.get $arena) (local.get $s) (local.get $len))
    (i32.store (local.get $p) (local.get $h))
    (i32.store offset=4 (local.get $p) (i32.or (i32.shl (local.get $kind) (i32.const 16)) (local.get $len)))
    (i32.store offset=8 (local.get $p) (global.get $arena))
    (i32.store offset=12 (local.get $p) (local.get $code))
    (global.set $arena (i32.add (global.get $arena) (local.get $len)))
    (global.set $names (i32.add (global.get $names) (i32.const 1)))
    (i32.const 1))

  ;; The lines in [from, to) (the last ends with '\n'), up to max records, into the columns from their start.
  ;; Returns 0: all taken (pos = to); 1: max records written; 2: the line at pos is the parser's to read;
  ;; 3: the line at pos names a variable not in the table (kind, [start, end)). The results (RESULTS): pos, the
  ;; lines taken and the records written before it, and that name. statesOnly: event lines are skipped unread, as `line` does.
  (func (export "scan") (param $from i32) (param $to i32) (param $max i32) (param $statesOnly i32) (result i32)
    (local $s i32) (local $tag i32) (local $kind i32) (local $i i32) (local $c i32) (local $ns i32) (local $e i32)
    (local $t f64) (local $v f64) (local $p i32) (local $q i32) (local $key i32) (local $h i32) (local $n i32) (local $lines i32) (local $status i32)
    (local.set $s (local.get $from))
    (global.set $tsAt (i32.const -1))
    (block $stop
      (loop $line
        (br_if $stop (i32.ge_u (local.get $s) (local.get $to)))
        (local.set $tag (i32.load8_u (local.get $s)))
        ;; Blank lines, LF or CRLF.
        (if (i32.eq (local.get $tag) (i32.const 10))
          (then
            (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
            (local.set $s (i32.add (local.get $s) (i32.const 1)))
            (br $line)))
        (if (i32.and (i32.eq (local.get $tag) (i32.const 13)) (i32.eq (i32.load8_u offset=1 (local.get $s)) (i32.const 10)))
          (then
            (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
            (local.set $s (i32.add (local.get $s) (i32.const 2)))
            (br $line)))
        (local.set $status (i32.const 2))
        (br_if $stop (i32.ne (i32.load8_u offset=1 (local.get $s)) (i32.const 9)))
        (local.set $kind (select (i32.const 1) (select (i32.const 2) (i32.const 0) (i32.eq (local.get $tag) (i32.const 83))) (i32.eq (local.get $tag) (i32.const 69))))
        (br_if $stop (i32.eqz (local.get $kind)))
        (if (i32.and (i32.eq (local.get $kind) (i32.const 1)) (local.get $statesOnly))
          (then
            (local.set $i (i32.add (local.get $s) (i32.const 2)))
            (block $found (loop $skip
              (br_if $found (i32.eq (i32.load8_u (local.get $i)) (i32.const 10)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $skip)))
            (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
            (local.set $s (i32.add (local.get $i) (i32.const 1)))
            (br $line)))
        (local.set $status (i32.const 1))
        (br_if $stop (i32.ge_u (local.get $n) (local.get $max)))
        (local.set $status (i32.const 2))
        ;; The time, up to its TAB: a state's with the bytes of the last one taken, its value.
        (if (i32.and (i32.eq (local.get $kind) (i32.const 2)) (i32.ge_s (global.get $tsAt) (i32.const 0)))
          (then
            (if (i32.eq (i32.load8_u (i32.add (i32.add (local.get $s) (i32.const 2)) (global.get $tsLen))) (i32.const 9))
              (then
                (if (call $same (global.get $tsAt) (i32.add (local.get $s) (i32.const 2)) (global.get $tsLen))
                  (then (local.set $i (i32.add (i32.add (local.get $s) (i32.const 2)) (global.get $tsLen))))
                  (else (local.set $i (i32.const 0)))))
              (else (local.set $i (i32.const 0)))))
          (else (local.set $i (i32.const 0))))
        (if (local.get $i)
          (then (local.set $t (global.get $tsValue)))
          (else
            (local.set $t (call $num (i32.add (local.get $s) (i32.const 2))))
            (br_if $stop (i32.eqz (global.get $ok)))
            (local.set $i (global.get $end))
            (br_if $stop (i32.ne (i32.load8_u (local.get $i)) (i32.const 9)))
            (global.set $tsAt (i32.add (local.get $s) (i32.const 2)))
            (global.set $tsLen (i32.sub (local.get $i) (global.get $tsAt)))
            (global.set $tsValue (local.get $t))))
        (local.set $ns (i32.add (local.get $i) (i32.const 1)))
        ;; The name: first the one that followed the last record's last time.
        (local.set $p (i32.const 0))
        (if (global.get $prev)
          (then
            (local.set $q (i32.load offset=16 (global.get $prev)))
            (if (local.get $q)
              (then
                (local.set $key (i32.load offset=4 (local.get $q)))
                (if (i32.eq (i32.shr_u (local.get $key) (i32.const 16)) (local.get $kind))
                  (then
                    (local.set $i (i32.add (local.get $ns) (i32.and (local.get $key) (i32.const 0xFFFF))))
                    (local.set $c (i32.load8_u (local.get $i)))
                    ;; Followed by what ends a name of its kind, and the same bytes.
                    (if (i32.and
                          (select (i32.eq (local.get $c) (i32.const 9)) (i32.or (i32.eq (local.get $c) (i32.const 10)) (i32.eq (local.get $c) (i32.const 13))) (i32.eq (local.get $kind) (i32.const 2)))
                          (call $same (i32.load offset=8 (local.get $q)) (local.get $ns) (i32.and (local.get $key) (i32.const 0xFFFF))))
                      (then (local.set $p (local.get $q))))))))))
        (if (i32.eqz (local.get $p))
          (then
            ;; The name: printable ASCII, 1 to 255 bytes, hashed as it is scanned (FNV-1a, from the kind).
            (local.set $i (local.get $ns))
            (local.set $h (i32.xor (i32.const 0x811c9dc5) (local.get $kind)))
            (block $nameEnd
              (loop $byte
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $nameEnd (i32.ge_u (i32.sub (local.get $c) (i32.const 32)) (i32.const 95)))
                (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $c)) (i32.const 16777619)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $byte)))
            (br_if $stop (i32.or (i32.eq (local.get $i) (local.get $ns)) (i32.gt_u (i32.sub (local.get $i) (local.get $ns)) (i32.const 255))))))
        ;; An event's name ends the line; a state's is followed by a TAB and its value, which ends it.
        (local.set $v (f64.const 0))
        (if (i32.eq (local.get $kind) (i32.const 2))
          (then
            (br_if $stop (i32.ne (local.get $c) (i32.const 9)))
            (local.set $v (call $num (i32.add (local.get $i) (i32.const 1))))
            (br_if $stop (i32.eqz (global.get $ok)))
            (local.set $e (global.get $end)))
          (else (local.set $e (local.get $i))))
        (local.set $c (i32.load8_u (local.get $e)))
        (if (i32.eq (local.get $c) (i32.const 13))
          (then
            (local.set $e (i32.add (local.get $e) (i32.const 1)))
            (local.set $c (i32.load8_u (local.get $e)))))
        (br_if $stop (i32.ne (local.get $c) (i32.const 10)))
        ;; Its number, if the table has the name; the entry now follows the last record's.
        (if (i32.eqz (local.get $p))
          (then
            (local.set $p (call $slot (local.get $kind) (local.get $h) (local.get $ns) (i32.sub (local.get $i) (local.get $ns))))
            (if (i32.eqz (i32.load offset=4 (local.get $p)))
              (then
                (i32.store offset=12 (global.get $RESULTS) (local.get $kind))
                (i32.store offset=16 (global.get $RESULTS) (local.get $ns))
                (i32.store offset=20 (global.get $RESULTS) (local.get $i))
                (i32.store offset=24 (global.get $RESULTS) (local.get $h))
                (local.set $status (i32.const 3))
                (br $stop)))
            (if (global.get $prev) (then (i32.store offset=16 (global.get $prev) (local.get $p))))))
        (global.set $prev (local.get $p))
        (i32.store (i32.add (global.get $CODE) (i32.shl (local.get $n) (i32.const 2))) (i32.load offset=12 (local.get $p)))
        (f64.store (i32.add (global.get $T) (i32.shl (local.get $n) (i32.const 3))) (local.get $t))
        (f64.store (i32.add (global.get $V) (i32.shl (local.get $n) (i32.const 3))) (local.get $v))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
        (local.set $s (i32.add (local.get $e) (i32.const 1)))
        (br $line)))
    (if (i32.ge_u (local.get $s) (local.get $to)) (then (local.set $status (i32.const 0))))
    (i32.store (global.get $RESULTS) (local.get $s))
    (i32.store offset=4 (global.get $RESULTS) (local.get $lines))
    (i32.store offset=8 (global.get $RESULTS) (local.get $n))
    (local.get $status))
)
