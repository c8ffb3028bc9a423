package io.aigw.runtime.plugin;

import io.aigw.runtime.config.PluginsConfig;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Watches the plugins folder and reports a change once it has settled: no event for the settle
 * time, and every jar of the same size and modification time at two looks that far apart. A jar
 * still being copied keeps changing, so it is not reported half-written; a copy that stops halfway
 * is reported, and refused for not being a whole jar, until it is finished. Bursts of events (a
 * copy writes many times; a replacement is a delete and a create) make one report. Whatever a
 * report's reload throws, the watcher goes on; what it is doing, and what stopped it if it stops
 * while the gateway runs (the folder deleted or moved), is in its {@link WatcherStatus}.
 */
public final class FolderWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FolderWatcher.class.getName());
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final PluginFolder folder;
    private final Duration settle;
    private final Runnable onChange;
    private final WatchService watch;
    private final Thread thread;
    private final WatcherStatus status;
    private volatile boolean closing;
    /** The jars as last reported (or as found at start): events that change no jar report nothing. */
    private List<PluginJar> reported;

    private FolderWatcher(PluginFolder folder, Duration settle, List<PluginJar> loaded, Runnable onChange,
                          WatcherStatus status) throws IOException {
        this.folder = folder;
        this.status = status;
        this.settle = settle;
        this.onChange = onChange;
        this.reported = loaded;
        this.watch = FileSystems.getDefault().newWatchService();
        folder.path().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                StandardWatchEventKinds.ENTRY_MODIFY);
        this.thread = Thread.ofPlatform().name("aigw-plugin-watch").daemon().unstarted(this::run);
    }

    /**
     * Starts watching the plugins folder, when there is one and {@code gateway.plugins.watch} asks
     * for it; {@code onChange} runs on the watching thread after each settled change.
     *
     * @param loaded the plugins loaded from the folder as it is now
     * @param status where the watcher says what it is doing, from now on
     */
    public static Optional<FolderWatcher> startIfAsked(PluginsConfig config, Optional<PluginFolder> folder,
                                                       PluginSet loaded, Runnable onChange, WatcherStatus status) {
        if (folder.isEmpty()) {
            status.set(new WatcherStatus.State.Off("there is no plugins folder (gateway.plugins.dir)"));
            return Optional.empty();
        }
        if (!config.watch()) {
            status.set(new WatcherStatus.State.Off("gateway.plugins.watch is false"));
            return Optional.empty();
        }
        try {
            FolderWatcher watcher = new FolderWatcher(folder.get(), config.settle(),
                    loaded.jars().stream().map(LoadedJar::jar).toList(), onChange, status);
            status.set(new WatcherStatus.State.Watching(Instant.now()));
            watcher.thread.start();
            return Optional.of(watcher);
        } catch (IOException e) {
            status.set(new WatcherStatus.State.Off("the folder cannot be watched: " + e));
            LOG.log(Level.WARNING, "The plugins folder " + folder.get().path() + " cannot be watched (" + e + "), so"
                    + " a jar changed there is loaded only by POST /admin/v1/plugins/reload or bin/gateway plugins"
                    + " reload.");
            return Optional.empty();
        }
    }

    private void run() {
        String fault = "its thread was interrupted";
        try {
            while (true) {
                drain(watch.take());
                List<PluginJar> settled = settled();
                if (!settled.equals(reported)) {
                    reported = settled;
                    report();
                }
            }
        } catch (ClosedWatchServiceException e) {
            // Closed: the gateway stops.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            fault = e.toString();
            LOG.log(Level.ERROR, "Watching the plugins folder " + folder.path() + " failed (" + e + "), so changes"
                    + " in it are no longer loaded by themselves; POST /admin/v1/plugins/reload still loads them.");
        } finally {
            status.set(closing ? new WatcherStatus.State.Off("the gateway stops")
                    : new WatcherStatus.State.Stopped(fault, Instant.now()));
        }
    }

    /** The folder's jars once no event has come for the settle time and two looks that far apart agree. */
    private List<PluginJar> settled() throws InterruptedException {
        List<PluginJar> seen = folder.jars();
        while (true) {
            WatchKey more = watch.poll(settle.toNanos(), TimeUnit.NANOSECONDS);
            if (more != null) {
                drain(more);
            }
            List<PluginJar> now = folder.jars();
            if (more == null && now.equals(seen)) {
                return now;
            }
            seen = now;
        }
    }

    private void drain(WatchKey key) {
        key.pollEvents();
        if (!key.reset()) {
            throw new IllegalStateException("the folder can no longer be watched (deleted or moved?)");
        }
    }

    private void report() {
        try {
            onChange.run();
        } catch (Throwable e) {
            // The watcher outlives whatever a reload throws: nothing else loads the folder by itself.
            LOG.log(Level.ERROR, "Loading the changed plugins folder " + folder.path() + " failed; the folder is"
                    + " still watched", e);
        }
    }

    /** Stops watching, and waits a little for a reload under way to end. */
    @Override
    public void close() {
        closing = true;
        try {
            watch.close();
            thread.join(CLOSE_WAIT);
        } catch (IOException e) {
            // Nothing is watched any more either way.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
