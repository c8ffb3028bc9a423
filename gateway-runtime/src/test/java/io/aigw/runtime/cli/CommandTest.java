package io.aigw.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** bin/gateway's arguments, read into what it is asked to do. */
public final class CommandTest {

    @Test
    void noArgumentStartsTheServer() {
        assertEquals(new Command.Serve(), Command.of());
    }

    @Test
    void keysPassesWhatFollowsToTheKeysCommand() {
        assertEquals(new Command.Keys(List.of("create", "--name", "ci")), Command.of("keys", "create", "--name", "ci"));
    }

    @Test
    void pluginsPassesWhatFollowsToThePluginsCommand() {
        assertEquals(new Command.Plugins(List.of("reload", "--url", "http://127.0.0.1:8080")),
                Command.of("plugins", "reload", "--url", "http://127.0.0.1:8080"));
    }

    @Test
    void helpAndVersionHaveTheSpellingsUsersTry() {
        for (String help : List.of("help", "--help", "-h")) {
            assertEquals(new Command.Help(), Command.of(help));
        }
        for (String version : List.of("version", "--version")) {
            assertEquals(new Command.Version(), Command.of(version));
        }
    }

    @Test
    void anythingElseIsAMistakeThatSaysWhat() {
        assertEquals(new Command.Mistake("unknown command 'serve'"), Command.of("serve"));
        assertEquals(new Command.Mistake("migrate takes no arguments"), Command.of("migrate", "now"));
        assertEquals(new Command.Migrate(), Command.of("migrate"));
    }
}
