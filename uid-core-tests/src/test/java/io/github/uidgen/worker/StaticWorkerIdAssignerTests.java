package io.github.uidgen.worker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The static assigner's state file: where it goes, what it holds, and every way it can be wrong.
 */
class StaticWorkerIdAssignerTests {

	private static final long MARK = 1_760_000_000_000L;

	@TempDir
	Path folder;

	@Test
	void aBackupWorkerIdIsHandedOutWithItsOwnStateFileOnlyWhileItsMarkLiesBehindTheBound() {
		Path stateFile = this.folder.resolve("worker-3.state");
		long now = System.currentTimeMillis();
		StaticWorkerIdAssigner assigner = new StaticWorkerIdAssigner(3, stateFile, java.util.List.of(11L, 12L));
		assigner.assign(1023);
		assigner.renew(3, now + 600_000);

		java.util.Optional<WorkerAssignment> first = assigner.assignBehind(1023, now);
		assertThat(first).contains(WorkerAssignment.fresh(11));
		assigner.renew(11, now + 600_000);
		assigner.release(11, now + 600_000);
		assertThat(this.folder.resolve("worker-3.state.backup-11")).content().contains("workerId=11",
				"highWaterMarkMillis=" + (now + 600_000));

		// Backup 11's mark now lies ahead of the bound: backup 12 comes next, and then none is left.
		java.util.Optional<WorkerAssignment> second = assigner.assignBehind(1023, now);
		assertThat(second).contains(WorkerAssignment.fresh(12));
		assertThat(assigner.assignBehind(1023, now)).isEmpty();
		assigner.release(12, now);
		assigner.release(3, now + 600_000);

		StaticWorkerIdAssigner restarted = new StaticWorkerIdAssigner(3, stateFile, java.util.List.of(11L, 12L));
		assertThat(restarted.assign(1023).highWaterMarkMillis()).isEqualTo(now + 600_000);
		assertThat(restarted.assignBehind(1023, now + 600_000)).contains(new WorkerAssignment(11, now + 600_000));
		restarted.release(11, WorkerAssignment.NO_MARK);
		restarted.release(3, WorkerAssignment.NO_MARK);
	}

	@Test
	void aBackupWorkerIdLockedByAnotherAssignerIsPassedOver() {
		long now = System.currentTimeMillis();
		StaticWorkerIdAssigner one = new StaticWorkerIdAssigner(1, this.folder.resolve("worker-1.state"),
				java.util.List.of(9L));
		StaticWorkerIdAssigner copy = new StaticWorkerIdAssigner(2, this.folder.resolve("worker-1.state"),
				java.util.List.of(9L));
		assertThat(one.assignBehind(1023, now)).contains(WorkerAssignment.fresh(9));
		assertThat(copy.assignBehind(1023, now)).isEmpty();
		one.release(9, now);
		assertThat(copy.assignBehind(1023, now + 1)).contains(new WorkerAssignment(9, now));
		copy.release(9, now);
	}

	@Test
	void backupWorkerIdsMustBeDistinctOtherWorkerIdsThatFitTheLayout() {
		Path stateFile = this.folder.resolve("worker-5.state");
		assertThatExceptionOfType(io.github.uidgen.InvalidSettingException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(5, stateFile, java.util.List.of(6L, 5L)))
			.withMessageContaining("backupIds");
		assertThatExceptionOfType(io.github.uidgen.InvalidSettingException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(5, stateFile, java.util.List.of(6L, 6L)));
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(5, stateFile, java.util.List.of(6L, 40L)).assign(31))
			.withMessageContaining("backup worker IDs");
	}

	@Test
	void createsParentFoldersAndWritesAReadableStateFileWithoutLeftovers() throws IOException {
		Path stateFile = this.folder.resolve("a/b/c/worker-9.state");
		StaticWorkerIdAssigner assigner = new StaticWorkerIdAssigner(9, stateFile);
		assertThat(assigner.assign(1023)).isEqualTo(WorkerAssignment.fresh(9));
		assigner.renew(9, MARK);
		assertThat(Files.readString(stateFile)).contains("workerId=9", "highWaterMarkMillis=" + MARK,
				"highWaterMark=2025-10-09T08:53:20Z");
		assigner.release(9, MARK + 5);
		assertThat(Files.readString(stateFile)).contains("highWaterMarkMillis=" + (MARK + 5));
		try (var files = Files.list(stateFile.getParent())) {
			assertThat(files.map((file) -> file.getFileName().toString())).containsExactlyInAnyOrder("worker-9.state",
					"worker-9.state.lock");
		}
	}

	@Test
	void writesTheStateFileAtClaimSoAnUnwritableOneFailsAtStart() throws IOException {
		Path stateFile = this.folder.resolve("worker-1.state");
		Files.createDirectories(stateFile.resolveSibling("worker-1.state.tmp"));
		Files.writeString(stateFile.resolveSibling("worker-1.state.tmp").resolve("occupied"), "x");
		StaticWorkerIdAssigner assigner = new StaticWorkerIdAssigner(1, stateFile);
		assertThatExceptionOfType(StateFileException.class).isThrownBy(() -> assigner.assign(1023))
			.satisfies((ex) -> assertThat(ex.getPath()).isEqualTo(stateFile))
			.withMessageContaining("Cannot write the uid state file " + stateFile)
			.withMessageContaining("write access");
		// The failed claim let go of the lock: once the obstacle is gone, a claim succeeds.
		Files.delete(stateFile.resolveSibling("worker-1.state.tmp").resolve("occupied"));
		Files.delete(stateFile.resolveSibling("worker-1.state.tmp"));
		assertThat(assigner.assign(1023).workerId()).isEqualTo(1);
	}

	@Test
	void aFolderThatCannotBeCreatedFailsNamingTheFolder() throws IOException {
		Path blocker = Files.writeString(this.folder.resolve("not-a-folder"), "x");
		Path stateFile = blocker.resolve("worker-1.state");
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(1, stateFile).assign(1023))
			.withMessageContaining("Cannot create the folder " + blocker)
			.withMessageContaining("writable folder");
	}

	@Test
	void anUnreadableStateFileFailsNamingTheFile() throws IOException {
		Path stateFile = Files.createDirectories(this.folder.resolve("worker-1.state"));
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(1, stateFile).assign(1023))
			.satisfies((ex) -> assertThat(ex.getPath()).isEqualTo(stateFile))
			.withMessageContaining("Cannot read the uid state file " + stateFile);
	}

	@Test
	void aCorruptStateFileFailsAndIsLeftAlone() throws IOException {
		Path stateFile = this.folder.resolve("worker-3.state");
		String garbage = "version=1\nworkerId=3\nhighWaterMarkMillis=17600000000x0\n";
		Files.writeString(stateFile, garbage);
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(3, stateFile).assign(1023))
			.withMessageContaining(stateFile + " is corrupt: highWaterMarkMillis '17600000000x0' is not a number")
			.withMessageContaining("Restore it from a backup");
		assertThat(Files.readString(stateFile)).isEqualTo(garbage);
	}

	@Test
	void aStateFileWithoutVersionOrWithAStrayLineIsCorrupt() throws IOException {
		Path stateFile = this.folder.resolve("worker-3.state");
		Files.writeString(stateFile, "workerId=3\nhighWaterMarkMillis=none\n");
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(3, stateFile).assign(1023))
			.withMessageContaining("version");
		Files.writeString(stateFile, "version=1\nworkerId=3\nhalf a line\n");
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(3, stateFile).assign(1023))
			.withMessageContaining("'half a line' is not key=value");
	}

	@Test
	void aStateFileOfAnotherWorkerIsRefused() {
		Path stateFile = this.folder.resolve("shared.state");
		StaticWorkerIdAssigner four = new StaticWorkerIdAssigner(4, stateFile);
		four.assign(1023);
		four.release(4, MARK);
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(5, stateFile).assign(1023))
			.withMessageContaining("belongs to worker 4, not to the configured worker 5");
	}

	@Test
	void oneAssignerCannotClaimTwiceAndASecondOneInTheSameJvmIsRefused() {
		Path stateFile = this.folder.resolve("worker-6.state");
		StaticWorkerIdAssigner first = new StaticWorkerIdAssigner(6, stateFile);
		first.assign(1023);
		assertThatExceptionOfType(StateFileException.class).isThrownBy(() -> first.assign(1023))
			.withMessageContaining("already claimed");
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(6, stateFile).assign(1023))
			.withMessageContaining("in use by another generator in this JVM");
		first.release(6, MARK);
		assertThat(new StaticWorkerIdAssigner(6, stateFile).assign(1023).highWaterMarkMillis()).isEqualTo(MARK);
	}

	@Test
	void aRefusedSecondClaimInTheSameJvmKeepsTheFirstClaimsLockAgainstOtherProcesses() throws Exception {
		Path stateFile = this.folder.resolve("worker-13.state");
		StaticWorkerIdAssigner first = new StaticWorkerIdAssigner(13, stateFile);
		first.assign(1023);
		assertThatExceptionOfType(StateFileException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(13, stateFile).assign(1023))
			.withMessageContaining("in use by another generator in this JVM");

		Process other = startHolder(13, stateFile);
		try {
			BufferedReader lines = new BufferedReader(
					new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
			StringBuilder output = new StringBuilder();
			String line;
			while ((line = lines.readLine()) != null && !line.equals(StateFileHolderProcess.READY)) {
				output.append(line).append('\n');
			}
			assertThat(line).as("another process must not get the lock this JVM still holds").isNull();
			assertThat(other.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(output).contains("locked by another process");
			assertThat(other.exitValue()).isNotZero();
		}
		finally {
			other.destroyForcibly();
		}
		first.release(13, MARK);
	}

	@Test
	void renewBeforeClaimOrForAnotherWorkerIdFails() {
		StaticWorkerIdAssigner assigner = new StaticWorkerIdAssigner(7, this.folder.resolve("worker-7.state"));
		assertThatExceptionOfType(StateFileException.class).isThrownBy(() -> assigner.renew(7, MARK))
			.withMessageContaining("not claimed");
		assigner.assign(1023);
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> assigner.renew(8, MARK));
	}

	@Test
	void aNegativeWorkerIdIsRefused() {
		assertThatExceptionOfType(WorkerIdOutOfRangeException.class)
			.isThrownBy(() -> new StaticWorkerIdAssigner(-1, this.folder.resolve("x.state")))
			.withMessageContaining("0 or more");
	}

	@Test
	void anotherProcessHoldingTheStateFileIsRefusedAndItsMarkSurvivesItsKill() throws Exception {
		Path stateFile = this.folder.resolve("worker-12.state");
		Process other = startHolder(12, stateFile);
		try {
			BufferedReader output = new BufferedReader(
					new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
			String line;
			StringBuilder seen = new StringBuilder();
			while ((line = output.readLine()) != null && !line.equals(StateFileHolderProcess.READY)) {
				seen.append(line).append('\n');
			}
			assertThat(line).as("the other process started and claimed; it said:\n" + seen)
				.isEqualTo(StateFileHolderProcess.READY);

			assertThatExceptionOfType(StateFileException.class)
				.isThrownBy(() -> new StaticWorkerIdAssigner(12, stateFile).assign(1023))
				.withMessageContaining("locked by another process (pid " + other.pid())
				.withMessageContaining("Two instances with the same worker ID issue duplicate IDs");
		}
		finally {
			other.destroyForcibly();
			assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
		}
		// Killed without a chance to clean up: the OS dropped its lock, the mark it recorded is on disk.
		WorkerAssignment afterKill = new StaticWorkerIdAssigner(12, stateFile).assign(1023);
		assertThat(afterKill.highWaterMarkMillis()).isEqualTo(MARK);
	}

	/** Starts another JVM that claims the static worker ID and prints READY once it holds it. */
	private static Process startHolder(long workerId, Path stateFile) throws IOException {
		return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), StateFileHolderProcess.class.getName(),
				Long.toString(workerId), stateFile.toString(), Long.toString(MARK))
			.redirectErrorStream(true)
			.start();
	}

}
