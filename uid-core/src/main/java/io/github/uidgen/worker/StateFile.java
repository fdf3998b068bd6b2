package io.github.uidgen.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * The static assigner's state file: a few {@code key=value} lines holding one worker's high-water mark, read at
 * claim and replaced atomically on every write, so that it always holds a whole mark, the old one or the new one.
 *
 * <p>A write goes to {@code <file>.tmp}, is forced to disk, moved over the file and the folder is flushed, so not even
 * a power cut leaves half a mark. Every failure is a {@link StateFileException} naming the file and the fix.
 */
final class StateFile {

	private static final Logger logger = LoggerFactory.getLogger(StateFile.class);

	private static final String FORMAT_VERSION = "1";

	private static final String NONE = "none";

	private final Path path;

	private final Path tempFile;

	private final long workerId;

	StateFile(Path path, long workerId) {
		this.path = path;
		this.tempFile = path.resolveSibling(path.getFileName() + ".tmp");
		this.workerId = workerId;
	}

	/** Creates the folder the file lives in. */
	void createFolder() {
		Path parent = this.path.getParent();
		try {
			Files.createDirectories(parent);
		}
		catch (IOException ex) {
			throw new StateFileException(this.path, "Cannot create the folder " + parent + " for the uid state file "
					+ this.path + " (" + ex + "); point the state file at a writable folder, or create this one with "
					+ "write access for the application.", ex);
		}
	}

	/**
	 * Reads the mark.
	 * @return the mark, {@link WorkerAssignment#NO_MARK} when there is no file yet or it holds none
	 */
	long readMark() {
		List<String> lines;
		try {
			lines = Files.readAllLines(this.path, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return WorkerAssignment.NO_MARK;
		}
		catch (IOException | RuntimeException ex) {
			throw new StateFileException(this.path, "Cannot read the uid state file " + this.path + " (" + ex
					+ "); make it a readable file, or restore it from a backup. It holds the high-water mark that keeps "
					+ "a restart from repeating IDs.", ex);
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
			throw new StateFileException(this.path, "The uid state file " + this.path + " belongs to worker "
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
		return new StateFileException(this.path, "The uid state file " + this.path + " is corrupt: " + detail
				+ ". Restore it from a backup, or delete it once the clock has passed the time worker " + this.workerId
				+ " last issued IDs for (its last run's stop plus the generator's mark reservation and max-ahead "
				+ "time); deleting it any earlier risks duplicate IDs.", null);
	}

	/**
	 * Replaces the file with one holding the given mark.
	 * @param mark the mark, or {@link WorkerAssignment#NO_MARK}
	 */
	void write(long mark) {
		boolean none = mark == WorkerAssignment.NO_MARK;
		String content = "# uid worker state: the high-water mark of static worker ID " + this.workerId + ".\n"
				+ "# Written by the application; do not edit while it runs.\n" + "version=" + FORMAT_VERSION + "\n"
				+ "workerId=" + this.workerId + "\n" + "highWaterMarkMillis=" + (none ? NONE : Long.toString(mark))
				+ "\n" + (none ? "" : "highWaterMark=" + Instant.ofEpochMilli(mark) + "\n");
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
			forceFolder();
		}
		catch (IOException ex) {
			throw new StateFileException(this.path, "Cannot write the uid state file " + this.path + " (" + ex
					+ "); give the application write access to " + this.path.getParent()
					+ " and make sure the disk is not full.", ex);
		}
	}

	private void moveIntoPlace() throws IOException {
		try {
			Files.move(this.tempFile, this.path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			throw new IOException("the file system of " + this.path.getParent()
					+ " cannot replace a file atomically; keep the state file on a local disk", ex);
		}
	}

	/** Makes the rename itself durable; some systems (Windows) cannot open folders, where this is best effort. */
	private void forceFolder() {
		try (FileChannel folder = FileChannel.open(this.path.getParent(), StandardOpenOption.READ)) {
			folder.force(true);
		}
		catch (IOException ex) {
			logger.trace("Cannot flush folder {}: {}", this.path.getParent(), ex.toString());
		}
	}

}
