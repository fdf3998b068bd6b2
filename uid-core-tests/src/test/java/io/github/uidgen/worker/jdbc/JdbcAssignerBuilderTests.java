package io.github.uidgen.worker.jdbc;

import java.time.Duration;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.worker.support.HostEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Defaults and refused settings of the database assigners' builders; nothing here connects.
 */
class JdbcAssignerBuilderTests {

	private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

	@Test
	void leaseDefaults() {
		JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(this.dataSource).build();
		assertThat(assigner.getLeaseTable()).isEqualTo("UID_WORKER_LEASE");
		assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
		assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
		assertThat(assigner.renewInterval()).isEqualTo(Duration.ofSeconds(5));
		assertThat(assigner.getInstanceId()).isEqualTo(HostEnvironment.current().defaultInstanceId(null));
		assertThat(assigner.getHostName()).isEqualTo(HostEnvironment.current().hostName());
		assertThat(assigner.isInitializeSchema()).isFalse();
		assertThat(assigner.name()).isEqualTo("db");
	}

	@Test
	void disposableDefaults() {
		DisposableWorkerIdAssigner assigner = DisposableWorkerIdAssigner.builder(this.dataSource).build();
		assertThat(assigner.getWorkerNodeTable()).isEqualTo("WORKER_NODE");
		assertThat(assigner.getHostName()).isEqualTo(HostEnvironment.current().hostName());
		assertThat(assigner.getPort()).isNull();
		assertThat(assigner.renewInterval()).isZero();
		assertThat(assigner.isInitializeSchema()).isFalse();
		assertThat(assigner.name()).isEqualTo("db");
	}

	@Test
	void thePortGoesIntoTheDefaultInstanceId() {
		JdbcLeaseWorkerIdAssigner assigner = JdbcLeaseWorkerIdAssigner.builder(this.dataSource).port("8443").build();
		assertThat(assigner.getInstanceId()).isEqualTo(HostEnvironment.current().hostName() + ":8443");
	}

	@ParameterizedTest
	@ValueSource(strings = { "uid lease", "t; DROP TABLE x", "\"quoted\"", "1starts_with_digit", "a.b.c", "", "x-y" })
	void tableNamesThatAreNotPlainIdentifiersAreRefused(String name) {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable(name))
			.satisfies((ex) -> {
				assertThat(ex.getSetting()).isEqualTo("leaseTable");
				assertThat(ex.getValue()).isEqualTo(name);
			});
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> DisposableWorkerIdAssigner.builder(this.dataSource).workerNodeTable(name))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("workerNodeTable"));
	}

	@Test
	void schemaQualifiedNamesAreAccepted() {
		assertThat(JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseTable("ids.UID_LEASE_2").build()
			.getLeaseTable()).isEqualTo("ids.UID_LEASE_2");
		assertThat(DisposableWorkerIdAssigner.builder(this.dataSource).workerNodeTable("legacy.WORKER_NODE").build()
			.getWorkerNodeTable()).isEqualTo("legacy.WORKER_NODE");
	}

	@Test
	void aHeartbeatThatIsNotShorterThanTheLeaseIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
				.leaseDuration(Duration.ofSeconds(10))
				.heartbeatInterval(Duration.ofSeconds(10))
				.build())
			.withMessageContaining("heartbeatInterval")
			.withMessageContaining("shorter than the lease duration");
		// With the lease duration set first, at once; set before it, against the lease duration set later.
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
				.leaseDuration(Duration.ofSeconds(10))
				.heartbeatInterval(Duration.ofSeconds(10)))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("heartbeatInterval"));
		assertThat(JdbcLeaseWorkerIdAssigner.builder(this.dataSource)
			.heartbeatInterval(Duration.ofSeconds(40))
			.leaseDuration(Duration.ofSeconds(60))
			.build()).isNotNull();
	}

	@Test
	void aLeaseDurationBelowOneMillisecondIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).leaseDuration(Duration.ZERO))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("leaseDuration"));
	}

	@Test
	void aBlankOrOverlongInstanceIdIsRefused() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).instanceId(" "));
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> JdbcLeaseWorkerIdAssigner.builder(this.dataSource).instanceId("x".repeat(256)));
	}

}
