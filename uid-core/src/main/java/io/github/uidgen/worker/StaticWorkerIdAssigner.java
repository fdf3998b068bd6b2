package io.github.uidgen.worker;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.github.uidgen.InvalidSettingException;

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
 *
 * <p>Optional <em>backup worker IDs</em> let the default generator ride through a large step of the clock back
 * ({@link #assignBehind(long, long)}): each has a state file of its own next to the worker's,
 * {@code <state file>.backup-<id>}, with its own mark and lock, and is handed out only when its mark lies behind the
 * clock. Backup IDs are static worker IDs too: no other instance may use them.
 */
public class StaticWorkerIdAssigner implements WorkerIdAssigner {

	private static final Logger logger = LoggerFactory.getLogger(StaticWorkerIdAssigner.class);

	private final long workerId;

	private final Path stateFile;

	private final Path lockFile;

	private final StateFile file;

	private StateFileLock lock;

	private long storedMark = WorkerAssignment.NO_MARK;

	private final List<Backup> backups;

	/**
	 * Creates an assigner for a configured worker ID.
	 * @param workerId the worker ID, 0 or more; no other instance may use it
	 * @param stateFile where the worker's high-water mark is kept; parent folders are created as needed
	 */
	public StaticWorkerIdAssigner(long workerId, Path stateFile) {
		this(workerId, stateFile, List.of());
	}

	/**
	 * Creates an assigner for a configured worker ID and backup worker IDs for a clock that steps back.
	 * @param workerId the worker ID, 0 or more; no other instance may use it
	 * @param stateFile where the worker's high-water mark is kept; parent folders are created as needed
	 * @param backupIds further worker IDs, each with the state file {@code <stateFile>.backup-<id>}; no other
	 * instance may use them either
	 */
	public StaticWorkerIdAssigner(long workerId, Path stateFile, Collection<Long> backupIds) {
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
		Collection<Long> given = (backupIds != null) ? backupIds : List.of();
		Set<Long> distinct = new LinkedHashSet<>(given);
		if (distinct.contains(null) || distinct.contains(workerId) || distinct.stream().anyMatch((id) -> id < 0)
				|| distinct.size() != given.size()) {
			throw new InvalidSettingException("backupIds", backupIds, "use distinct worker IDs of 0 or more, other than "
					+ "the worker ID " + workerId + " itself");
		}
		List<Backup> slots = new ArrayList<>();
		for (long id : distinct) {
			slots.add(new Backup(id, this.stateFile.resolveSibling(name + ".backup-" + id)));
		}
		this.backups = List.copyOf(slots);
	}

	/**
	 * Returns the backup worker IDs.
	 * @return the backup worker IDs, in the order they are tried
	 */
	public List<Long> getBackupIds() {
		return this.backups.stream().map((backup) -> backup.workerId).toList();
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
	 * @throws WorkerIdOutOfRangeException when the configured ID does not fit the layout, a
	 * {@link BackupWorkerIdOutOfRangeException} when a backup ID does not
	 * @throws StateFileException when the file cannot be locked, read, parsed or written
	 */
	@Override
	public synchronized WorkerAssignment assign(long maxWorkerId) {
		if (this.workerId > maxWorkerId) {
			throw new WorkerIdOutOfRangeException(this.workerId, maxWorkerId,
					"configure a worker ID from 0 to " + maxWorkerId + ", or give the layout more worker bits");
		}
		for (Backup backup : this.backups) {
			if (backup.workerId > maxWorkerId) {
				throw new BackupWorkerIdOutOfRangeException(backup.workerId, maxWorkerId);
			}
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

	/**
	 * Claims the first backup worker ID that is not in use and whose mark is no later than the bound: locks its state
	 * file, reads its mark, and writes it back to prove the file is writable. A backup whose file another process has
	 * locked is passed over.
	 */
	@Override
	public synchronized Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		for (Backup backup : this.backups) {
			if (backup.lock != null || backup.workerId > maxWorkerId) {
				continue;
			}
			backup.file.createFolder();
			try {
				backup.lock = StateFileLock.acquire(backup.lockFile, backup.path, backup.workerId);
			}
			catch (StateFileException ex) {
				logger.warn("uid backup worker ID {} passed over: {}", backup.workerId, ex.getMessage());
				continue;
			}
			try {
				long mark = backup.file.readMark();
				if (mark != WorkerAssignment.NO_MARK && mark > latestMarkMillis) {
					backup.unlock();
					continue;
				}
				backup.file.write(mark);
				backup.storedMark = mark;
			}
			catch (RuntimeException ex) {
				backup.unlock();
				throw ex;
			}
			logger.info("uid backup worker ID {} claimed, state file {}, {}", backup.workerId, backup.path,
					describe(backup.storedMark));
			return Optional.of(new WorkerAssignment(backup.workerId, backup.storedMark));
		}
		return Optional.empty();
	}

	@Override
	public synchronized void renew(long workerId, long highWaterMarkMillis) {
		Backup backup = backup(workerId);
		if (backup != null) {
			if (backup.lock == null) {
				throw new StateFileException(backup.path,
						"Backup worker ID " + workerId + " is not claimed; call assignBehind before renew", null);
			}
			backup.record(highWaterMarkMillis);
			return;
		}
		requireClaimed(workerId);
		if (highWaterMarkMillis > this.storedMark) {
			this.file.write(highWaterMarkMillis);
			this.storedMark = highWaterMarkMillis;
		}
	}

	@Override
	public synchronized void release(long workerId, long highWaterMarkMillis) {
		Backup backup = backup(workerId);
		if (backup != null) {
			if (backup.lock != null) {
				try {
					backup.record(highWaterMarkMillis);
				}
				finally {
					backup.unlock();
				}
			}
			return;
		}
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

	private Backup backup(long workerId) {
		for (Backup backup : this.backups) {
			if (backup.workerId == workerId) {
				return backup;
			}
		}
		return null;
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

	/** A backup worker ID: its own state file, lock and mark. Guarded by the assigner's monitor. */
	private static final class Backup {

		private final long workerId;

		private final Path path;

		private final Path lockFile;

		private final StateFile file;

		private StateFileLock lock;

		private long storedMark = WorkerAssignment.NO_MARK;

		Backup(long workerId, Path path) {
			this.workerId = workerId;
			this.path = path;
			this.lockFile = path.resolveSibling(path.getFileName() + ".lock");
			this.file = new StateFile(path, workerId);
		}

		void record(long mark) {
			if (mark > this.storedMark) {
				this.file.write(mark);
				this.storedMark = mark;
			}
		}

		void unlock() {
			StateFileLock held = this.lock;
			this.lock = null;
			if (held != null) {
				held.release();
			}
		}

	}

}
