#!/usr/bin/env python3
# The executable form of log4j.yaml: read one raw log file (its path is the
# first argument, .gz included), print dlog records on stdout.
import calendar, gzip, re, sys
from datetime import datetime

path = sys.argv[1]
stamp = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) ')
with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as f:
    for line in f:
        m = stamp.match(line)
        if not m or ' DEBUG ' in line:
            continue
        t = calendar.timegm(datetime.strptime(m[1], '%Y-%m-%d %H:%M:%S').timetuple()) + int(m[2]) / 1000
        def event(name): print(f'E\t{t}\t{name}')
        def state(name, v): print(f'S\t{t}\t{name}\t{v}')
        if 'Starting RegionServer' in line: event('Start')
        elif 'Configuration loaded' in line: event('ConfigLoaded')
        elif w := re.search(r'Writer (\d+) started', line): event(f'Writer_{w[1]}_run')
        elif q := re.search(r'callQueue stats: queue=(\d+)', line): state('rpc_queue', q[1])
        elif fl := re.search(r'Flushed memstore size=(\d+)MB in (\d+)ms', line):
            event('MemstoreFlush'); state('flush_size_mb', fl[1]); state('flush_seconds', int(fl[2]) / 1000)
        elif c := re.search(r'Compaction (started|completed)', line): event(f'Compaction_{c[1]}')
        elif 'Slow call' in line: event('SlowCall')
        elif 'Shutdown complete' in line: event('Finish')
