package io.github.uidgen.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StaticWorkerIdAssignerAutoConfiguration}; every state file lives in a temporary folder.
 */
class StaticWorkerIdAssignerAutoConfigurationTests {

	@TempDir
	Path stateDir;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
				UidGeneratorAutoConfiguration.class));

	private String stateFile() {
		return "uid.worker.static.state-file=" + this.stateDir.resolve("worker.state");
	}

	@Test
	void workerIdAloneChoosesTheStaticAssigner() {
		this.contextRunner.withPropertyValues("uid.worker.id=5", stateFile()).run((context) -> {
			assertThat(context).hasSingleBean(StaticWorkerIdAssigner.class).hasSingleBean(UidGenerator.class);
			AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
			assertThat(generator.status().worker().assigner()).isEqualTo("static");
			assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(5);
			assertThat(this.stateDir.resolve("worker.state")).isRegularFile();
		});
	}

	@Test
	void explicitStaticAssigner() {
		this.contextRunner.withPropertyValues("uid.worker.assigner=STATIC", "uid.worker.id=6", stateFile())
			.run((context) -> {
				assertThat(context).hasSingleBean(StaticWorkerIdAssigner.class);
				assertThat(context.getBean(StaticWorkerIdAssigner.class).getWorkerId()).isEqualTo(6);
			});
	}

	@Test
	void stateFileDefaultsToAFileUnderTheWorkingDirectory() {
		// Only the assigner: nothing claims the worker ID, so nothing is written to the working directory.
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class))
			.withPropertyValues("uid.worker.id=12")
			.run((context) -> assertThat(context.getBean(StaticWorkerIdAssigner.class).getStateFile())
				.isEqualTo(Path.of("uid-state", "worker-12.state").toAbsolutePath()));
	}

	@Test
	void backupWorkerIdsKeepStateFilesNextToTheWorkersAndTakeOverOnAStepBack() {
		ManualClock clock = new ManualClock(java.time.Instant.now());
		this.contextRunner.withBean(DefaultUidGeneratorCustomizer.class, () -> (builder) -> builder.clock(clock))
			.withPropertyValues("uid.worker.id=5", "uid.worker.static.backup-ids=8,9", stateFile())
			.run((context) -> {
				assertThat(context.getBean(StaticWorkerIdAssigner.class).getBackupIds()).containsExactly(8L, 9L);
				AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
				generator.getUID();
				clock.advance(java.time.Duration.ofMinutes(-10));
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(8);
				assertThat(generator.status().worker().previousId()).isEqualTo(5);
				assertThat(this.stateDir.resolve("worker.state.backup-8")).isRegularFile();
			});
	}

	@Test
	void backupWorkerIdsThatRepeatTheWorkerIdFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("uid.worker.id=5", "uid.worker.static.backup-ids=5", stateFile())
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(io.github.uidgen.InvalidSettingException.class)
				.hasMessageContaining("backupIds")
				.hasMessageContaining("other than the worker ID 5"));
		this.contextRunner.withPropertyValues("uid.worker.id=5", "uid.worker.static.backup-ids=5", stateFile())
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("uid.worker.static.backup-ids"));
	}

	@Test
	void otherAssignerChoiceWinsOverTheWorkerId() {
		this.contextRunner.withPropertyValues("uid.worker.assigner=redis", "uid.worker.id=5", "uid.enabled=true")
			.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(1))
			.run((context) -> assertThat(context).doesNotHaveBean(StaticWorkerIdAssigner.class));
	}

	@Test
	void applicationsAssignerWins() {
		FixedWorkerIdAssigner own = new FixedWorkerIdAssigner(9);
		this.contextRunner.withPropertyValues("uid.worker.id=5", stateFile())
			.withBean(WorkerIdAssigner.class, () -> own)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(StaticWorkerIdAssigner.class);
				assertThat(context.getBean(WorkerIdAssigner.class)).isSameAs(own);
				assertThat(context.getBean(StartingUidGenerator.class).awaitStarted().status().worker().id()).isEqualTo(9);
			});
	}

	@Test
	void switchedOffByProperty() {
		this.contextRunner.withPropertyValues("uid.enabled=false", "uid.worker.id=5", stateFile())
			.run((context) -> assertThat(context).doesNotHaveBean(WorkerIdAssigner.class)
				.doesNotHaveBean(UidGenerator.class));
	}

	@Test
	void restartOnTheSameStateFileContinuesAfterTheLastId() {
		AtomicLong last = new AtomicLong();
		for (String generator : new String[] { "cached", "default" }) {
			this.contextRunner.withPropertyValues("uid.worker.id=3", "uid.generator=" + generator, stateFile())
				.run((context) -> {
					UidGenerator uids = context.getBean(UidGenerator.class);
					long first = uids.getUID();
					assertThat(first).isGreaterThan(last.get());
					long uid = first;
					for (int i = 0; i < 10_000; i++) {
						uid = uids.getUID();
					}
					last.set(uid);
				});
		}
	}

	@Test
	void staticAssignerWithoutWorkerId() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("uid.worker.id is not set")
				.contains("Property: uid.worker.id")
				.contains("Value: (not set)");
			assertThat(analysis.getAction()).startsWith("Set uid.worker.id to a worker ID unique to this instance, "
					+ "from 0 to 1023 (the uid.worker-bits hold), or ");
		}, "uid.worker.assigner=static");
	}

	@Test
	void negativeWorkerId() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.id").contains("Value: -2");
			assertThat(analysis.getAction()).isEqualTo("Set uid.worker.id to a worker ID from 0 to 1023 (the "
					+ "uid.worker-bits hold).");
		}, "uid.worker.id=-2");
	}

	@Test
	void workerIdOutOfRange() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("uid.worker.id 16 does not fit")
				.contains("worker IDs 0 to 15")
				.contains("Property: uid.worker.id")
				.contains("Value: 16");
			assertThat(analysis.getAction()).contains("Set uid.worker.id to a worker ID from 0 to 15");
		}, "uid.worker.id=16", "uid.worker-bits=4", "uid.seq-bits=18", stateFile());
	}

	@Test
	void corruptStateFile() throws IOException {
		Path file = this.stateDir.resolve("corrupt.state");
		Files.writeString(file, "this is not a uid state file");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains(file.toString())
				.contains("Property: uid.worker.static.state-file")
				.contains("Value: " + file);
			assertThat(analysis.getAction()).contains("uid.worker.static.state-file");
		}, "uid.worker.id=1", "uid.worker.static.state-file=" + file);
	}

}
