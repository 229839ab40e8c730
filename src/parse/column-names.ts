/**
 * The names that say a column's or a field's role (issue 53): what layout.ts detects roles by, and what
 * fields.ts leaves out of a record's message. Names are matched lower-cased without `_`, `-`, `.`, `@`, spaces
 * (normal).
 */

/**
 * Names that say a column's role, matched on the name lower-cased without `_`, `-`, `.`, `@`, spaces.
 * Reason: these are the names the common exporters write (Kubernetes/Loki/Elastic/OpenTelemetry/Docker
 * json-file: `timestamp`, `@timestamp`, `time`, `TimeUnixNano`; `log`, `message`, `msg`, `body`;
 * `level`, `severity`; `pod`, `PodName`, `service.name`, `container`, `host`, `node`; `TraceID`, `trace_id`,
 * `request_id`; `SpanID`).
 */
export const TIME_NAME = /^(?:time|timestamp|ts|t|date|datetime|eventtime|logtime|timeunixnano|timeunix|timeunixms|observedtimestamp|timestampnanos?|\w*timestamp)$/;
export const MESSAGE_NAME = /^(?:log|message|msg|body|bodystringvalue|text|line|content|logline|rawlog|rawmessage|event|payload|textpayload)$/;
export const LEVEL_NAME = /^(?:level|loglevel|lvl|severity|severitytext|priority)$/;
export const TRACE_NAME = /^(?:x)?(?:trace|traceid|requestid|reqid|request|correlationid|transactionid|txid|txnid)$/;
export const SPAN_NAME = /^(?:spanid|span|parentid|parentspanid)$/;
export const LOGGER_NAME = /^(?:logger|loggername|name)$/;
/** Entity names, most specific component first: a service is what a user fixes; a node hosts many services. */
export const ENTITY_NAMES: readonly RegExp[] = [
  /^(?:service|servicename|svc|app|application|appname|component|k8sdeploymentname|deployment)$/,
  // The program that wrote the line: syslog's APP-NAME/TAG (RFC 5424, 3164), journald's SYSLOG_IDENTIFIER and
  // _SYSTEMD_UNIT. A program is what a user fixes, as a service is; a host runs many.
  /^(?:program|programname|syslogidentifier|identifier|systemdunit|unit)$/,
  /^(?:pod|podname|k8spodname|kubernetespodname|instance)$/,
  // A log stream: a source's lines as a store keeps them apart (CloudWatch's logStreamName, one per container or task).
  /^(?:container|containername|k8scontainername|kubernetescontainername|logstream|logstreamname)$/,
  // A logger's name (pino's and bunyan's `name`, zap's `logger`): the part of the code that wrote the line, before
  // the host it ran on. Read only when on every sampled line (as a logger writes it), and bare `name` only as a
  // JSON Lines record's own field (entityTier).
  LOGGER_NAME,
  /^(?:host|hostname|source|server)$/,
  /^(?:node|nodename|k8snodename)$/,
];
export const normal = (name: string): string => name.toLowerCase().replace(/[\s_.@-]/g, '');

/**
 * Names of fields that say where a line ran or was kept rather than what its statement measured: a process or
 * thread, a logger, a record schema's version (bunyan's `v`, logstash's `@version`), a level's number
 * (logstash-logback-encoder's `level_value`), an output stream, a syslog facility, a log's name, an offset or
 * sequence number in a file or store. Matched as ENTITY_NAMES are (normal).
 */
export const PLACE_NAME = /^(?:\w*pid|ppid|tid|thread|threadname|threadid|process|processid|processname|logger|loggername|name|v|version|levelvalue|stream|facility|syslogfacility|logname|offset|logoffset|seq|seqno|sequence|sequencenumber|cursor|insertid|eventid|ingestiontime)$/;

/**
 * Whether a JSON Lines field is the statement's (its `key=value` follows the message): a top-level field of a
 * scalar value, not a place (PLACE_NAME, ENTITY_NAMES) and not a store's own (`_index`, journald's `_PID`,
 * `__CURSOR`: a leading `_`). docs/input.md, "JSON Lines", says why.
 */
export function statementField(key: string): boolean {
  if (key.includes('.') || key.startsWith('_')) return false;
  const n = normal(key);
  return !PLACE_NAME.test(n) && !ENTITY_NAMES.some((re) => re.test(n));
}
