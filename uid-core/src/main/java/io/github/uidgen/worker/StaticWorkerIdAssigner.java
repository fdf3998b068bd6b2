package io.github.uidgen.worker;

import java.nio.file.Path;
import java.time.Instant;

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

	private final long workerId;

	private final Path stateFile;

	private final Path lockFile;

	private final StateFile file;

	private StateFileLock lock;

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
		this.file = new StateFile(this.stateFile, workerId);
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
		this.file.createFolder();
		this.lock = StateFileLock.acquire(this.lockFile, this.stateFile, this.workerId);
		try {
			this.storedMark = this.file.readMark();
			this.file.write(this.storedMark);
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
			this.file.write(highWaterMarkMillis);
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
				this.file.write(highWaterMarkMillis);
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

	private void unlock() {
		StateFileLock held = this.lock;
		this.lock = null;
		if (held != null) {
			held.release();
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
