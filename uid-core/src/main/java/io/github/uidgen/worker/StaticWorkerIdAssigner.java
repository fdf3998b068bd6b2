package io.github.uidgen.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker ID from configuration, with its high-water mark in a local state file.
 *
 * <p>Nothing coordinates static worker IDs across machines: <strong>two instances configured with the same worker
 * ID issue duplicate IDs.</strong> Give every instance its own ID. What this class does guard against:
 * <ul>
 * <li>a restart repeating IDs the previous run issued, even after {@code kill -9}: the mark is written ahead of
 * issue, to a temporary file that is flushed to disk and then moved over the state file, so the file always holds
 * either the old or the new mark, never half of one;</li>
 * <li>two processes on the same machine using the same state file at once: the assigner holds an exclusive lock on
 * {@code <state file>.lock} from {@link #assign(long)} to {@link #release(long, long)}; the operating system drops
 * it when the process dies.</li>
 * </ul>
 * An unreadable, corrupt, unwritable or locked file fails with a {@link StateFileException} that names the file
 * and the fix. Marks never move backwards.
 */
public class StaticWorkerIdAssigner implements WorkerIdAssigner {

	private static final Logger logger = LoggerFactory.getLogger(StaticWorkerIdAssigner.class);

	private static final String FORMAT_VERSION = "1";

	private static final String NONE = "none";

	private final long workerId;

	private final Path stateFile;

	private final Path lockFile;

	private final Path tempFile;

	private FileChannel lockChannel;

	private FileLock lock;

	private long storedMark = WorkerAssignment.NO_MARK;

	/**
	 * Creates an assigner for a configured worker ID.
	 * @param workerId the worker ID, 0 or more; no other instance may use it
	 * @param stateFile where the worker's high-water mark is kept; parent folders are created as needed
	 */
	public StaticWorkerIdAssigner(long workerId, Path stateFile) {
		if (workerId < 0) {
			throw new WorkerIdOutOfRangeException(workerId, Long.MAX_VALUE, "configure a worker ID of 0 or more");
		}
		if (stateFile == null) {
			throw new IllegalArgumentException("stateFile: set the file that keeps the worker's high-water mark");
		}
		this.workerId = workerId;
		this.stateFile = stateFile.toAbsolutePath().normalize();
		Path name = this.stateFile.getFileName();
		if (name == null) {
			throw new StateFileException(this.stateFile,
					"The uid state file " + this.stateFile + " is not a file name; point it at a file", null);
		}
		this.lockFile = this.stateFile.resolveSibling(name + ".lock");
		this.tempFile = this.stateFile.resolveSibling(name + ".tmp");
	}

	/**
	 * Returns the configured worker ID.
	 * @return the worker ID
	 */
	public long getWorkerId() {
		return this.workerId;
	}

	/**
	 * Returns the state file.
	 * @return the absolute path
	 */
	public Path getStateFile() {
		return this.stateFile;
	}

	/**
	 * Locks the state file, reads the worker's mark and writes it back to prove the file is writable.
	 * @throws WorkerIdOutOfRangeException when the configured ID does not fit the layout
	 * @throws StateFileException when the file cannot be locked, read, parsed or written
	 */
	@Override
	public synchronized WorkerAssignment assign(long maxWorkerId) {
		if (this.workerId > maxWorkerId) {
			throw new WorkerIdOutOfRangeException(this.workerId, maxWorkerId,
					"configure a worker ID from 0 to " + maxWorkerId + ", or give the layout more worker bits");
		}
		if (this.lock != null) {
			throw new StateFileException(this.stateFile, "Static worker ID " + this.workerId
					+ " is already claimed through this assigner; two generators on one worker ID would issue the same "
					+ "IDs. Give each generator its own worker ID and state file.", null);
		}
		createParentDirectories();
		acquireLock();
		try {
			this.storedMark = readMark();
			writeState(this.storedMark);
		}
		catch (RuntimeException ex) {
			unlock();
			throw ex;
		}
		logger.info("uid static worker ID {} claimed, state file {}, {}", this.workerId, this.stateFile,
				describe(this.storedMark));
		return new WorkerAssignment(this.workerId, this.storedMark);
	}

	@Override
	public synchronized void renew(long workerId, long highWaterMarkMillis) {
		requireClaimed(workerId);
		if (highWaterMarkMillis > this.storedMark) {
			writeState(highWaterMarkMillis);
			this.storedMark = highWaterMarkMillis;
		}
	}

	@Override
	public synchronized void release(long workerId, long highWaterMarkMillis) {
		if (this.lock == null || workerId != this.workerId) {
			return;
		}
		try {
			if (highWaterMarkMillis > this.storedMark) {
				writeState(highWaterMarkMillis);
				this.storedMark = highWaterMarkMillis;
			}
		}
		finally {
			unlock();
		}
	}

	@Override
	public String name() {
		return "static";
	}

	private void requireClaimed(long workerId) {
		if (workerId != this.workerId) {
			throw new IllegalArgumentException(
					"Worker ID " + workerId + " is not the static worker ID " + this.workerId + " of this assigner");
		}
		if (this.lock == null) {
			throw new StateFileException(this.stateFile,
					"Static worker ID " + this.workerId + " is not claimed; call assign before renew", null);
		}
	}

	private void createParentDirectories() {
		Path parent = this.stateFile.getParent();
		try {
			Files.createDirectories(parent);
		}
		catch (IOException ex) {
			throw new StateFileException(this.stateFile, "Cannot create the folder " + parent
					+ " for the uid state file " + this.stateFile + " (" + ex + "); point the state file at a "
					+ "writable folder, or create this one with write access for the application.", ex);
		}
	}

	private void acquireLock() {
		FileChannel channel;
		try {
			channel = FileChannel.open(this.lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
					StandardOpenOption.WRITE);
		}
		catch (IOException ex) {
			throw new StateFileException(this.stateFile, "Cannot open the lock file " + this.lockFile
					+ " of the uid state file (" + ex + "); give the application write access to " + this.lockFile
					.getParent() + ".", ex);
		}
		FileLock acquired;
		try {
			acquired = channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			closeQuietly(channel);
			throw new StateFileException(this.stateFile, "The uid state file " + this.stateFile
					+ " is in use by another generator in this JVM (static worker ID " + this.workerId
					+ "); two generators on one worker ID would issue the same IDs. Give each its own worker ID and "
					+ "state file.", ex);
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new StateFileException(this.stateFile,
					"Cannot lock " + this.lockFile + " (" + ex + "); make the folder writable.", ex);
		}
		if (acquired == null) {
			String holder = readHolder(channel);
			closeQuietly(channel);
			throw new StateFileException(this.stateFile, "The uid state file " + this.stateFile
					+ " is locked by another process" + (holder.isEmpty() ? "" : " (" + holder + ")")
					+ ", which uses static worker ID " + this.workerId + ". Two instances with the same worker ID "
					+ "issue duplicate IDs: give this instance its own worker ID and state file.", null);
		}
		this.lockChannel = channel;
		this.lock = acquired;
		writeHolder(channel);
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

	private void writeHolder(FileChannel channel) {
		// Only a hint for the message another process shows; the lock itself is what protects.
		HostEnvironment host = HostEnvironment.current();
		String holder = "pid " + host.processId() + " on " + host.hostName() + " since " + Instant.now();
		try {
			channel.truncate(0);
			channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
		}
		catch (IOException ex) {
			logger.debug("Could not note the lock holder in {}: {}", this.lockFile, ex.toString());
		}
	}

	private void unlock() {
		try {
			if (this.lock != null) {
				this.lock.release();
			}
		}
		catch (IOException ex) {
			logger.debug("Could not release the lock on {}: {}", this.lockFile, ex.toString());
		}
		finally {
			closeQuietly(this.lockChannel);
			this.lock = null;
			this.lockChannel = null;
		}
	}

	private static void closeQuietly(FileChannel channel) {
		if (channel != null) {
			try {
				channel.close();
			}
			catch (IOException ignored) {
				// Closing only drops the lock; nothing is lost.
			}
		}
	}

	private long readMark() {
		List<String> lines;
		try {
			lines = Files.readAllLines(this.stateFile, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return WorkerAssignment.NO_MARK;
		}
		catch (IOException | RuntimeException ex) {
			throw new StateFileException(this.stateFile, "Cannot read the uid state file " + this.stateFile + " ("
					+ ex + "); make it a readable file, or restore it from a backup. It holds the high-water mark that "
					+ "keeps a restart from repeating IDs.", ex);
		}
		Map<String, String> values = new HashMap<>();
		for (String line : lines) {
			String trimmed = line.trim();
			if (trimmed.isEmpty() || trimmed.startsWith("#")) {
				continue;
			}
			int equals = trimmed.indexOf('=');
			if (equals <= 0) {
				throw corrupt("the line '" + trimmed + "' is not key=value");
			}
			values.put(trimmed.substring(0, equals).trim(), trimmed.substring(equals + 1).trim());
		}
		if (!FORMAT_VERSION.equals(values.get("version"))) {
			throw corrupt("version is '" + values.get("version") + "', expected " + FORMAT_VERSION);
		}
		long fileWorkerId = parseLong(values.get("workerId"), "workerId");
		if (fileWorkerId != this.workerId) {
			throw new StateFileException(this.stateFile, "The uid state file " + this.stateFile + " belongs to worker "
					+ fileWorkerId + ", not to the configured worker " + this.workerId + ". Each worker ID needs its own "
					+ "state file: point this worker at another file (or, if worker " + fileWorkerId
					+ " is retired, delete this one).", null);
		}
		String mark = values.get("highWaterMarkMillis");
		return NONE.equals(mark) ? WorkerAssignment.NO_MARK : parseLong(mark, "highWaterMarkMillis");
	}

	private long parseLong(String value, String key) {
		if (value == null) {
			throw corrupt(key + " is missing");
		}
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			throw corrupt(key + " '" + value + "' is not a number");
		}
	}

	private StateFileException corrupt(String detail) {
		return new StateFileException(this.stateFile, "The uid state file " + this.stateFile + " is corrupt: " + detail
				+ ". Restore it from a backup, or delete it once the clock has passed the time worker " + this.workerId
				+ " last issued IDs for (its last run's stop plus the generator's mark reservation and max-ahead "
				+ "time); deleting it any earlier risks duplicate IDs.", null);
	}

	/** Writes the state to a temporary file, forces it to disk and moves it over the state file. */
	private void writeState(long mark) {
		String content = "# uid worker state: the high-water mark of static worker ID " + this.workerId + ".\n"
				+ "# Written by the application; do not edit while it runs.\n" + "version=" + FORMAT_VERSION + "\n"
				+ "workerId=" + this.workerId + "\n" + "highWaterMarkMillis="
				+ ((mark == WorkerAssignment.NO_MARK) ? NONE : Long.toString(mark)) + "\n"
				+ ((mark == WorkerAssignment.NO_MARK) ? "" : "highWaterMark=" + Instant.ofEpochMilli(mark) + "\n");
		try {
			try (FileChannel channel = FileChannel.open(this.tempFile, StandardOpenOption.CREATE,
					StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
				ByteBuffer buffer = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
				while (buffer.hasRemaining()) {
					channel.write(buffer);
				}
				channel.force(true);
			}
			moveIntoPlace();
			forceDirectory();
		}
		catch (IOException ex) {
			throw new StateFileException(this.stateFile, "Cannot write the uid state file " + this.stateFile + " ("
					+ ex + "); give the application write access to " + this.stateFile.getParent()
					+ " and make sure the disk is not full.", ex);
		}
	}

	private void moveIntoPlace() throws IOException {
		try {
			Files.move(this.tempFile, this.stateFile, StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			throw new IOException("the file system of " + this.stateFile.getParent()
					+ " cannot replace a file atomically; keep the state file on a local disk", ex);
		}
	}

	/** Makes the rename itself durable; some systems (Windows) cannot open folders, where this is best effort. */
	private void forceDirectory() {
		try (FileChannel directory = FileChannel.open(this.stateFile.getParent(), StandardOpenOption.READ)) {
			directory.force(true);
		}
		catch (IOException ex) {
			logger.trace("Cannot flush folder {}: {}", this.stateFile.getParent(), ex.toString());
		}
	}

	private static String describe(long mark) {
		return (mark == WorkerAssignment.NO_MARK) ? "no mark yet" : "mark " + Instant.ofEpochMilli(mark);
	}

	@Override
	public String toString() {
		return "StaticWorkerIdAssigner[worker " + this.workerId + ", " + this.stateFile + "]";
	}

}
