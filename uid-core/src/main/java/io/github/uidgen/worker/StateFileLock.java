package io.github.uidgen.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.uidgen.worker.support.HostEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive operating-system lock on a state file's {@code .lock} file, held from claim to release so that no
 * other process (and no other generator in this JVM) uses the same worker ID's state file at the same time.
 *
 * <p>POSIX locks belong to the process, not to the channel: closing <em>any</em> channel this JVM has open on the
 * lock file drops every lock the JVM holds on it (see {@link FileLock}). So a second claim in the same JVM must
 * never open the file at all; a JVM-wide registry of held lock files refuses it before it gets that far.
 */
final class StateFileLock {

	private static final Logger logger = LoggerFactory.getLogger(StateFileLock.class);

	/** Lock files this JVM holds, by real path, so two spellings of one file count as one. */
	private static final Set<Path> heldInThisJvm = ConcurrentHashMap.newKeySet();

	private final Path lockFile;

	private final Path registered;

	private final FileChannel channel;

	private final FileLock lock;

	private StateFileLock(Path lockFile, Path registered, FileChannel channel, FileLock lock) {
		this.lockFile = lockFile;
		this.registered = registered;
		this.channel = channel;
		this.lock = lock;
	}

	/**
	 * Takes the lock, without waiting.
	 * @param lockFile the lock file; its folder must exist
	 * @param stateFile the state file it guards, for messages
	 * @param workerId the worker ID, for messages
	 * @return the held lock
	 * @throws StateFileException when this JVM or another process holds it, or it cannot be taken
	 */
	static StateFileLock acquire(Path lockFile, Path stateFile, long workerId) {
		Path registered = realPath(lockFile);
		if (!heldInThisJvm.add(registered)) {
			throw inUseInThisJvm(stateFile, workerId, null);
		}
		try {
			return open(lockFile, registered, stateFile, workerId);
		}
		catch (RuntimeException ex) {
			heldInThisJvm.remove(registered);
			throw ex;
		}
	}

	private static StateFileLock open(Path lockFile, Path registered, Path stateFile, long workerId) {
		FileChannel channel;
		try {
			channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
					StandardOpenOption.WRITE);
		}
		catch (IOException ex) {
			throw new StateFileException(stateFile, "Cannot open the lock file " + lockFile
					+ " of the uid state file (" + ex + "); give the application write access to "
					+ lockFile.getParent() + ".", ex);
		}
		FileLock acquired;
		try {
			acquired = channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			// Only reachable if something outside this class locked the file in this JVM: closing the channel would
			// drop that lock, so leave it open.
			throw inUseInThisJvm(stateFile, workerId, ex);
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new StateFileException(stateFile,
					"Cannot lock " + lockFile + " (" + ex + "); make the folder writable.", ex);
		}
		if (acquired == null) {
			String holder = readHolder(channel);
			closeQuietly(channel);
			throw new StateFileException(stateFile, "The uid state file " + stateFile + " is locked by another process"
					+ (holder.isEmpty() ? "" : " (" + holder + ")") + ", which uses static worker ID " + workerId
					+ ". Two instances with the same worker ID issue duplicate IDs: give this instance its own worker "
					+ "ID and state file.", null);
		}
		StateFileLock lock = new StateFileLock(lockFile, registered, channel, acquired);
		lock.writeHolder();
		return lock;
	}

	private static StateFileException inUseInThisJvm(Path stateFile, long workerId, Throwable cause) {
		return new StateFileException(stateFile, "The uid state file " + stateFile
				+ " is in use by another generator in this JVM (static worker ID " + workerId
				+ "); two generators on one worker ID would issue the same IDs. Give each its own worker ID and state "
				+ "file.", cause);
	}

	private static Path realPath(Path lockFile) {
		try {
			return lockFile.getParent().toRealPath().resolve(lockFile.getFileName());
		}
		catch (IOException ex) {
			return lockFile;
		}
	}

	private static String readHolder(FileChannel channel) {
		try {
			ByteBuffer buffer = ByteBuffer.allocate(256);
			channel.read(buffer, 0);
			return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
		}
		catch (IOException ex) {
			return "";
		}
	}

	/** Notes who holds the lock, only as a hint for the message another process shows. */
	private void writeHolder() {
		HostEnvironment host = HostEnvironment.current();
		String holder = "pid " + host.processId() + " on " + host.hostName() + " since " + Instant.now();
		try {
			this.channel.truncate(0);
			this.channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
		}
		catch (IOException ex) {
			logger.debug("Could not note the lock holder in {}: {}", this.lockFile, ex.toString());
		}
	}

	/** Lets go of the lock; another process or generator may take it afterwards. */
	void release() {
		try {
			this.lock.release();
		}
		catch (IOException ex) {
			logger.debug("Could not release the lock on {}: {}", this.lockFile, ex.toString());
		}
		finally {
			closeQuietly(this.channel);
			heldInThisJvm.remove(this.registered);
		}
	}

	private static void closeQuietly(FileChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ignored) {
			// Closing only drops the lock; nothing is lost.
		}
	}

}
