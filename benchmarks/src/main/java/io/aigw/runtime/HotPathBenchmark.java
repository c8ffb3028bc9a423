package io.aigw.runtime;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How every hot-path benchmark runs, in one place: the average time of one operation, each thread
 * with its own state, five warm-up and three measured one-second iterations in one fork. JMH's
 * annotations are inherited, so a benchmark extends this and says only its time unit; options
 * given at the command line ({@code -Djmh.args}) still win.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public abstract class HotPathBenchmark {
}
