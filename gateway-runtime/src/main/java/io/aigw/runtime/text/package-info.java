/**
 * Rules for text a caller chooses that the gateway keeps or shows: which characters an identifier
 * (a model id, a key name, a model pattern) may hold, and how such text is written into a log line.
 * Depends on nothing else in the runtime, so every layer may use it.
 */
package io.aigw.runtime.text;
