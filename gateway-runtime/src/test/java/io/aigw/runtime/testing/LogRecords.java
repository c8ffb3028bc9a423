package io.aigw.runtime.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The records the gateway logs through java.util.logging while a test runs, kept as they are. */
public final class LogRecords extends Handler implements AutoCloseable {
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogRecords() {
    }

    /** Starts keeping every record logged from now on, until {@link #close()}. */
    public static LogRecords capture() {
        LogRecords logs = new LogRecords();
        Logger.getLogger("").addHandler(logs);
        return logs;
    }

    /** The messages logged at {@code level} by loggers under {@code loggerPrefix}, in order. */
    public List<String> messages(Level level, String loggerPrefix) {
        return records.stream()
                .filter(record -> record.getLevel().equals(level) && record.getLoggerName() != null
                        && record.getLoggerName().startsWith(loggerPrefix))
                .map(LogRecord::getMessage)
                .toList();
    }

    /** Every message logged at {@code level}, whoever logged it. */
    public List<String> messages(Level level) {
        return messages(level, "");
    }

    /** Every record kept, with its level, logger and what was thrown. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(this);
    }
}
