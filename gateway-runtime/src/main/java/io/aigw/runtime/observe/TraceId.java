package io.aigw.runtime.observe;

/**
 * The id of the trace a request is part of (32 lowercase hex digits, W3C trace context), left in
 * its context by tracing when tracing is on: the access log line and the usage record name it, so
 * that an operator finds the trace of a line or a record.
 */
public record TraceId(String value) {
}
