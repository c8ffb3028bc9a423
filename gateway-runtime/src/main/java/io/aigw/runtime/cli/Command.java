package io.aigw.runtime.cli;

import java.util.List;

/** What {@code bin/gateway} was asked to do, read from its arguments. */
public sealed interface Command {

    /** No argument: run the server. */
    record Serve() implements Command {
    }

    /** {@code keys ...}: the arguments after {@code keys}, for {@link KeysCommand}. */
    record Keys(List<String> args) implements Command {
    }

    /** {@code plugins ...}: the arguments after {@code plugins}, for {@link PluginsCommand}. */
    record Plugins(List<String> args) implements Command {
    }

    /** {@code upstreams ...}: the arguments after {@code upstreams}, for {@link UpstreamsCommand}. */
    record Upstreams(List<String> args) implements Command {
    }

    /** {@code usage ...}: the arguments after {@code usage}, for {@link UsageCommand}. */
    record UsageReport(List<String> args) implements Command {
    }

    /** {@code migrate}: bring the database's schema up to date and exit. */
    record Migrate() implements Command {
    }

    /** {@code help}, {@code --help}, {@code -h}. */
    record Help() implements Command {
    }

    /** {@code version}, {@code --version}. */
    record Version() implements Command {
    }

    /** Arguments that ask for nothing the gateway does; {@code problem} says which. */
    record Mistake(String problem) implements Command {
    }

    static Command of(List<String> args) {
        if (args.isEmpty()) {
            return new Serve();
        }
        String first = args.getFirst();
        return switch (first) {
            case "keys" -> new Keys(List.copyOf(args.subList(1, args.size())));
            case "plugins" -> new Plugins(List.copyOf(args.subList(1, args.size())));
            case "upstreams" -> new Upstreams(List.copyOf(args.subList(1, args.size())));
            case "usage" -> new UsageReport(List.copyOf(args.subList(1, args.size())));
            case "migrate" -> args.size() == 1 ? new Migrate() : new Mistake("migrate takes no arguments");
            case "help", "--help", "-h" -> new Help();
            case "version", "--version" -> new Version();
            default -> new Mistake("unknown command '" + first + "'");
        };
    }

    /** Reads {@code bin/gateway}'s arguments. */
    static Command of(String... args) {
        return of(List.of(args));
    }
}
