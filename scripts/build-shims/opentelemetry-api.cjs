// rampchat runs no OpenTelemetry. prom-client asks it for the active span only when exemplars are on
// (they are not), and node-redis only in OpenTelemetry.init (never called); the real package is
// 24 KB that every start would compile and run for nothing.
module.exports = { trace: { getSpan: () => undefined }, context: { active: () => undefined } };
