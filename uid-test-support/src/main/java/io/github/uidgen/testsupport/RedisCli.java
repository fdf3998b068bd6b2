package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code redis-cli} against a throwaway server on 127.0.0.1, within a time bound, for setting up clusters and
 * sentinels and for looking at what a test left.
 */
final class RedisCli {

	private RedisCli() {
	}

	/**
	 * Runs one command and returns its raw output, trimmed.
	 * @param port the server's port on 127.0.0.1
	 * @param bound how long the command may take
	 * @param args the command and its arguments
	 * @return what {@code redis-cli} printed, empty when it did not finish in time
	 */
	static String run(int port, Duration bound, String... args) {
		List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
		command.addAll(List.of(args));
		return exec(command, bound);
	}

	/**
	 * Runs {@code redis-cli} with arguments that name no server (such as {@code --cluster create}).
	 * @param bound how long it may take
	 * @param args the arguments
	 * @return what it printed, empty when it did not finish in time
	 */
	static String runWithoutServer(Duration bound, String... args) {
		List<String> command = new ArrayList<>(List.of("redis-cli"));
		command.addAll(List.of(args));
		return exec(command, bound);
	}

	private static String exec(List<String> command, Duration bound) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				return "";
			}
			return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + command, ex);
		}
	}

}
