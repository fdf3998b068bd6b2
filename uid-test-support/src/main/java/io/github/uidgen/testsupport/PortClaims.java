package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports handed out to test servers, claimed across every test JVM on the machine: a claim is an exclusive lock on a
 * file named for the port, held until the JVM exits (the operating system releases it however the JVM ends). Two
 * test JVMs running side by side therefore never start servers on the same port, even when the operating system
 * offers both the same free one.
 */
final class PortClaims {

	private static final Path DIRECTORY = Path.of(System.getProperty("java.io.tmpdir"), "uid-test-ports");

	/** The locks this JVM holds; kept reachable so that none is released before the JVM exits. */
	private static final Map<Integer, FileLock> held = new ConcurrentHashMap<>();

	private PortClaims() {
	}

	/**
	 * Claims a port for this JVM.
	 * @param port the port
	 * @return whether this JVM now holds it for the first time ({@code false} if this or another test JVM has it)
	 */
	static boolean claim(int port) {
		if (held.containsKey(port)) {
			return false;
		}
		try {
			Files.createDirectories(DIRECTORY);
			FileChannel channel = FileChannel.open(DIRECTORY.resolve(Integer.toString(port)), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE);
			FileLock lock;
			try {
				lock = channel.tryLock();
			}
			catch (OverlappingFileLockException ex) {
				lock = null;
			}
			if (lock == null) {
				channel.close();
				return false;
			}
			if (held.putIfAbsent(port, lock) != null) {
				channel.close();
				return false;
			}
			return true;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
