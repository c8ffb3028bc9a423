package io.aigw.runtime.trace;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bound on spans waiting for export, and the count of those dropped. The SDK's batch
 * processor drops the spans that overflow its queue without telling; here the spans ended and not
 * yet handed to the exporter are counted, those past the bound are dropped (and counted) before
 * they reach the batch processor, whose queue is as large, and every span of an export that
 * failed (a collector down or slow) is counted too. A request never waits on any of it.
 */
final class BoundedExport {
    private final int limit;
    private final SpanDrops drops;
    private final AtomicInteger waiting = new AtomicInteger();

    BoundedExport(int limit, SpanDrops drops) {
        this.limit = limit;
        this.drops = drops;
    }

    /** Hands sampled spans, as they end, to {@code batches} while fewer than the bound wait. */
    SpanProcessor inFrontOf(SpanProcessor batches) {
        return new SpanProcessor() {
            @Override
            public void onStart(Context parent, ReadWriteSpan span) {
            }

            @Override
            public boolean isStartRequired() {
                return false;
            }

            @Override
            public void onEnd(ReadableSpan span) {
                if (!span.getSpanContext().isSampled()) {
                    return;
                }
                if (waiting.incrementAndGet() > limit) {
                    waiting.decrementAndGet();
                    drops.dropped("queue_full", 1);
                    return;
                }
                batches.onEnd(span);
            }

            @Override
            public boolean isEndRequired() {
                return true;
            }

            @Override
            public CompletableResultCode shutdown() {
                return batches.shutdown();
            }

            @Override
            public CompletableResultCode forceFlush() {
                return batches.forceFlush();
            }
        };
    }

    /** Exports through {@code exporter}, counting the spans that leave the queue and those it fails to send. */
    SpanExporter counting(SpanExporter exporter) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                int count = spans.size();
                waiting.addAndGet(-count);
                CompletableResultCode result = exporter.export(spans);
                result.whenComplete(() -> {
                    if (!result.isSuccess()) {
                        drops.dropped("export_failed", count);
                    }
                });
                return result;
            }

            @Override
            public CompletableResultCode flush() {
                return exporter.flush();
            }

            @Override
            public CompletableResultCode shutdown() {
                return exporter.shutdown();
            }
        };
    }
}
