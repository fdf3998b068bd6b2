package io.github.uidgen.autoconfigure;

import java.nio.file.Path;

import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The static assigner taking its worker ID from a Kubernetes StatefulSet pod's ordinal: the {@code -N} at the end
 * of the host name (Kubernetes sets {@code HOSTNAME} to the pod name; here it is set as a property, which Spring's
 * environment reads the same way) or a named environment variable, plus an offset.
 */
class StatefulSetOrdinalTests {

	@TempDir
	Path stateDir;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class,
				JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
				ZookeeperWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class));

	/** Only the assigner: nothing claims the worker ID, so nothing is written to the working directory. */
	private final ApplicationContextRunner assignerOnly = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(StaticWorkerIdAssignerAutoConfiguration.class));

	private String stateFile() {
		return "uid.worker.static.state-file=" + this.stateDir.resolve("worker.state");
	}

	@Test
	void podIds3IsWorker3AndIssuesAsWorker3() {
		this.contextRunner.withPropertyValues("uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-3", stateFile())
			.run((context) -> {
				assertThat(context).hasSingleBean(StaticWorkerIdAssigner.class);
				AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(generator.status().worker().assigner()).isEqualTo("static");
				assertThat(generator.status().worker().id()).isEqualTo(3);
				assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(3);
				assertThat(this.stateDir.resolve("worker.state")).content().contains("workerId=3");
			});
	}

	@Test
	void theOffsetIsAddedToTheOrdinalAndNamesTheDefaultStateFile() {
		this.assignerOnly
			.withPropertyValues("uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-3",
					"uid.worker.static.ordinal-offset=100")
			.run((context) -> {
				StaticWorkerIdAssigner assigner = context.getBean(StaticWorkerIdAssigner.class);
				assertThat(assigner.getWorkerId()).isEqualTo(103);
				assertThat(assigner.getStateFile())
					.isEqualTo(Path.of("uid-state", "worker-103.state").toAbsolutePath());
			});
	}

	@Test
	void theOrdinalOfAFullyQualifiedPodNameAndOfAMultiDashSetName() {
		this.assignerOnly
			.withPropertyValues("uid.worker.static.ordinal-from=HOSTNAME",
					"HOSTNAME=order-ids-12.order-ids.prod.svc.cluster.local")
			.run((context) -> assertThat(context.getBean(StaticWorkerIdAssigner.class).getWorkerId()).isEqualTo(12));
	}

	@Test
	void theOrdinalFromANamedEnvironmentVariable() {
		this.assignerOnly
			.withPropertyValues("uid.worker.assigner=static", "uid.worker.static.ordinal-from=env",
					"uid.worker.static.ordinal-env=POD_INDEX", "POD_INDEX=5", "uid.worker.static.ordinal-offset=2")
			.run((context) -> assertThat(context.getBean(StaticWorkerIdAssigner.class).getWorkerId()).isEqualTo(7));
	}

	@Test
	void aHostNameWithoutAnOrdinal() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("The host name 'web' does not end in a StatefulSet ordinal")
				.contains("Property: uid.worker.static.ordinal-from")
				.contains("Value: hostname");
			assertThat(analysis.getAction()).contains("StatefulSet").contains("uid.worker.static.ordinal-env");
		}, "uid.worker.static.ordinal-from=hostname", "HOSTNAME=web");
	}

	@Test
	void anOrdinalBeyondTheLayout() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("The worker ID from the pod's ordinal, 14 (ordinal of host name 'ids-14') + 2")
				.contains("worker IDs 0 to 15")
				.contains("Property: uid.worker.static.ordinal-offset")
				.contains("Value: 2");
			assertThat(analysis.getAction()).contains("Lower uid.worker.static.ordinal-offset")
				.contains("raise uid.worker-bits");
		}, "uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-14", "uid.worker.static.ordinal-offset=2",
				"uid.worker-bits=4", "uid.seq-bits=18");
	}

	@Test
	void anEnvironmentVariableThatIsNotSetOrNotANumber() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("POD_INDEX that should hold the pod's ordinal is not set")
				.contains("Property: uid.worker.static.ordinal-env")
				.contains("Value: POD_INDEX");
			assertThat(analysis.getAction()).contains("apps.kubernetes.io/pod-index");
		}, "uid.worker.static.ordinal-from=env", "uid.worker.static.ordinal-env=POD_INDEX");
		assertFailure(this.contextRunner, (analysis) -> assertThat(analysis.getDescription())
			.contains("POD_INDEX is 'three', not an ordinal"), "uid.worker.static.ordinal-from=env",
				"uid.worker.static.ordinal-env=POD_INDEX", "POD_INDEX=three");
		assertFailure(this.contextRunner, (analysis) -> assertThat(analysis.getDescription())
			.contains("Property: uid.worker.static.ordinal-env")
			.contains("Value: (not set)"), "uid.worker.static.ordinal-from=env");
	}

	/**
	 * Every pod of a StatefulSet gets the same properties, so backup worker IDs next to an ordinal would be the same
	 * on every pod, and two pods whose clocks step back would issue as one worker: refused.
	 */
	@Test
	void backupWorkerIdsWithAnOrdinalSource() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("the same on every pod")
				.contains("Property: uid.worker.static.backup-ids")
				.contains("Value: [40, 41]");
			assertThat(analysis.getAction()).contains("Remove uid.worker.static.backup-ids")
				.contains("lease assigner");
		}, "uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-3", "uid.worker.static.backup-ids=40,41",
				stateFile());
	}

	@Test
	void aWorkerIdAndAnOrdinalSourceTogether() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("are both set").contains("Property: uid.worker.id");
			assertThat(analysis.getAction()).contains("Remove uid.worker.id");
		}, "uid.worker.id=1", "uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-3");
	}

	@Test
	void aNegativeOffset() {
		assertFailure(this.contextRunner, (analysis) -> assertThat(analysis.getDescription())
			.contains("Property: uid.worker.static.ordinal-offset")
			.contains("Value: -1"), "uid.worker.static.ordinal-from=hostname", "HOSTNAME=ids-3",
				"uid.worker.static.ordinal-offset=-1");
	}

}
