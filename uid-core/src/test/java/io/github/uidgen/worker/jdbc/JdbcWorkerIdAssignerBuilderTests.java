package io.github.uidgen.worker.jdbc;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.worker.HostEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Defaults and refused settings of the database assigner; nothing here connects.
 */
class JdbcWorkerIdAssignerBuilderTests {

	private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

	@Test
	void defaults() {
		JdbcWorkerIdAssigner assigner = JdbcWorkerIdAssigner.builder(this.dataSource).build();
		assertThat(assigner.getMode()).isEqualTo(JdbcWorkerIdAssigner.Mode.LEASE);
		assertThat(assigner.getLeaseTable()).isEqualTo("UID_WORKER_LEASE");
		assertThat(assigner.getWorkerNodeTable()).isEqualTo("WORKER_NODE");
		assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
		assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
		assertThat(assigner.renewInterval()).isEqualTo(Duration.ofSeconds(10));
		assertThat(assigner.getInstanceId()).isEqualTo(HostEnvironment.current().defaultInstanceId(null));
		assertThat(assigner.getHostName()).isEqualTo(HostEnvironment.current().hostName());
		assertThat(assigner.isInitializeSchema()).isFalse();
		assertThat(assigner.name()).isEqualTo("db");
	}

	@Test
	void thePortGoesIntoTheDefaultInstanceId() {
		JdbcWorkerIdAssigner assigner = JdbcWorkerIdAssigner.builder(this.dataSource).port("8443").build();
		assertThat(assigner.getInstanceId()).isEqualTo(HostEnvironment.current().hostName() + ":8443");
	}

	@ParameterizedTest
	@ValueSource(strings = { "uid lease", "t; DROP TABLE x", "\"quoted\"", "1starts_with_digit", "a.b.c", "", "x-y" })
	void tableNamesThatAreNotPlainIdentifiersAreRefused(String name) {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource).leaseTable(name))
			.satisfies((ex) -> {
				assertThat(ex.getSetting()).isEqualTo("leaseTable");
				assertThat(ex.getValue()).isEqualTo(name);
			});
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource).workerNodeTable(name))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("workerNodeTable"));
	}

	@Test
	void schemaQualifiedNamesAreAccepted() {
		JdbcWorkerIdAssigner assigner = JdbcWorkerIdAssigner.builder(this.dataSource)
			.leaseTable("ids.UID_LEASE_2")
			.workerNodeTable("legacy.WORKER_NODE")
			.build();
		assertThat(assigner.getLeaseTable()).isEqualTo("ids.UID_LEASE_2");
		assertThat(assigner.getWorkerNodeTable()).isEqualTo("legacy.WORKER_NODE");
	}

	@Test
	void aHeartbeatThatIsNotShorterThanTheLeaseIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource)
				.leaseDuration(Duration.ofSeconds(10))
				.heartbeatInterval(Duration.ofSeconds(10))
				.build())
			.withMessageContaining("heartbeatInterval")
			.withMessageContaining("shorter than the lease duration");
	}

	@Test
	void aLeaseDurationBelowOneMillisecondIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource).leaseDuration(Duration.ZERO))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("leaseDuration"));
	}

	@Test
	void aBlankOrOverlongInstanceIdIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource).instanceId(" "));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcWorkerIdAssigner.builder(this.dataSource).instanceId("x".repeat(256)));
	}

}
