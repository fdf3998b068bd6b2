package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidLayout;
import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code uid.datacenter-bits} and {@code uid.datacenter-id}: two applications in two data centers, each with a Redis
 * namespace of its own that hands out the same worker ID, issue different IDs that decode to their data centers; a
 * data-center ID or bits the layout cannot take stop start-up naming the property, the value and the fix; without
 * them the layout is the default one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatacenterAutoConfigurationTests {

	private static final int IDS = 100_000;

	private final String keyPrefix = "uid-dc-" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				StaticWorkerIdAssignerAutoConfiguration.class, JdbcWorkerIdAssignerAutoConfiguration.class,
				RedisWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class));

	private final ApplicationContextRunner onRedis = this.contextRunner.withPropertyValues(
			"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379", "uid.worker.assigner=redis",
			"uid.worker.redis.key-prefix=" + this.keyPrefix,
			// A fresh namespace's registry is new; its margin must still cover how far ahead a mark may lie.
			"uid.worker.redis.registry-loss-margin=300ms", "uid.mark.reservation=100ms", "uid.cached.max-ahead=100ms",
			"uid.datacenter-bits=2");

	private final ApplicationContextRunner withAssigner = this.contextRunner.withBean(WorkerIdAssigner.class,
			() -> new FixedWorkerIdAssigner(3));

	@TempDir
	Path stateDir;

	@AfterAll
	void deleteKeys() {
		LettuceConnectionFactory factory = TestRedis.connectionFactory();
		try {
			TestRedis.wipe(factory, "{" + this.keyPrefix + ":");
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void twoDataCentersWithTheirOwnRedisNamespaceGetTheSameWorkerIdAndIssueDifferentIds() {
		this.onRedis.withPropertyValues("uid.worker.redis.namespace=east", "uid.datacenter-id=1").run((east) -> {
			this.onRedis
				.withPropertyValues("uid.worker.redis.namespace=west", "uid.datacenter-id=2", "uid.generator=cached")
				.run((west) -> {
					AbstractUidGenerator one = east.getBean(StartingUidGenerator.class).awaitStarted();
					AbstractUidGenerator two = west.getBean(StartingUidGenerator.class).awaitStarted();
					assertThat(one.layout().getDatacenterBits()).isEqualTo(2);
					assertThat(one.status().worker().id()).isZero();
					assertThat(two.status().worker().id()).isZero();
					assertThat(one.status().worker().datacenterId()).isEqualTo(1);
					assertThat(two.status().worker().datacenterId()).isEqualTo(2);

					CompletableFuture<long[]> fromWest = CompletableFuture.supplyAsync(() -> take(two));
					long[] fromEast = take(one);
					long[] westIds = fromWest.get(60, TimeUnit.SECONDS);
					assertThat(distinct(fromEast, westIds)).isEqualTo(2L * IDS);
					assertThat(countNotFrom(one, fromEast, 1, 0)).isZero();
					assertThat(countNotFrom(two, westIds, 2, 0)).isZero();
					assertThat(one.parseUID(fromEast[0])).contains("\"datacenterId\":\"1\",\"workerId\":\"0\"");
				});
		});
	}

	@Test
	void withoutTheDataCenterPropertiesTheLayoutAndItsIdsAreAsBefore() {
		this.contextRunner
			.withPropertyValues("uid.worker.id=7", "uid.worker.static.state-file=" + this.stateDir.resolve("w.state"))
			.run((context) -> {
				AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(generator.layout()).isEqualTo(UidLayout.defaults());
				assertThat(generator.status().worker().datacenterId()).isNull();
				DecodedUid decoded = generator.decode(generator.getUID());
				assertThat(decoded.datacenterId()).isNull();
				assertThat(decoded.workerId()).isEqualTo(7);
			});
	}

	@Test
	void aDataCenterIdThatDoesNotFitItsBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("uid.datacenter-id 4 does not fit uid.datacenter-bits 2, which hold data-center IDs 0 to 3.")
				.contains("Property: uid.datacenter-id")
				.contains("Value: 4");
			assertThat(analysis.getAction()).isEqualTo("Set uid.datacenter-id from 0 to 3, or set "
					+ "uid.datacenter-bits to 3 or more in every data center before any of them issues IDs.");
		}, "uid.datacenter-bits=2", "uid.datacenter-id=4");
	}

	@Test
	void dataCenterBitsWithoutADataCenterId() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("uid.datacenter-bits is 2, so every instance must say which data center it issues for, "
						+ "and uid.datacenter-id is not set")
				.contains("Property: uid.datacenter-id")
				.contains("Value: (not set)");
			assertThat(analysis.getAction()).isEqualTo("Set uid.datacenter-id to this data center's ID, from 0 to 3, "
					+ "different in each data center (0 for the one that ran without data-center bits), or set "
					+ "uid.datacenter-bits to 0 for a single data center.");
		}, "uid.datacenter-bits=2");
	}

	@Test
	void aDataCenterIdWithoutDataCenterBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("uid.datacenter-id is 5, but uid.datacenter-bits is 0: the IDs have no data-center part")
				.contains("Property: uid.datacenter-id")
				.contains("Value: 5");
			assertThat(analysis.getAction()).isEqualTo("Set uid.datacenter-bits to 3 or more (taken from the 10 "
					+ "uid.worker-bits, the same in every data center), or remove uid.datacenter-id.");
		}, "uid.datacenter-id=5");
	}

	@Test
	void aNegativeDataCenterId() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("A data-center ID cannot be negative.")
				.contains("Property: uid.datacenter-id")
				.contains("Value: -1");
			assertThat(analysis.getAction()).isEqualTo("Set uid.datacenter-id from 0 to 7.");
		}, "uid.datacenter-bits=3", "uid.datacenter-id=-1");
	}

	@Test
	void dataCenterBitsThatLeaveNoWorkerBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("would leave none for worker IDs")
				.contains("Property: uid.datacenter-bits, uid.worker-bits")
				.contains("Value: 8 data-center bits of 8 worker bits");
			assertThat(analysis.getAction()).startsWith("Change uid.datacenter-bits, uid.worker-bits: use fewer "
					+ "data-center bits than worker bits");
		}, "uid.worker-bits=8", "uid.datacenter-bits=8", "uid.datacenter-id=1");
	}

	@Test
	void negativeDataCenterBits() {
		assertFailure(this.withAssigner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.datacenter-bits").contains("Value: -2");
			assertThat(analysis.getAction()).contains("Change uid.datacenter-bits: set 0 for a single data center");
		}, "uid.datacenter-bits=-2");
	}

	@Test
	void aStaticWorkerIdBeyondTheWorkerBitsTheDataCenterLeaves() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription())
				.contains("uid.worker.id 300 does not fit the layout, whose uid.worker-bits less uid.datacenter-bits "
						+ "hold worker IDs 0 to 255.")
				.contains("Property: uid.worker.id")
				.contains("Value: 300");
			assertThat(analysis.getAction()).contains("Set uid.worker.id to a worker ID from 0 to 255")
				.contains("keeping uid.datacenter-bits as it is");
		}, "uid.datacenter-bits=2", "uid.datacenter-id=1", "uid.worker.id=300",
				"uid.worker.static.state-file=" + this.stateDir.resolve("worker-300.state"));
	}

	@Test
	void aNegativeOrMissingStaticWorkerIdIsToldTheRangeTheDataCenterLeaves() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.id").contains("Value: -3");
			assertThat(analysis.getAction()).isEqualTo("Set uid.worker.id to a worker ID from 0 to 255 (the "
					+ "uid.worker-bits less uid.datacenter-bits hold).");
		}, "uid.datacenter-bits=2", "uid.datacenter-id=1", "uid.worker.id=-3");
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.id").contains("Value: (not set)");
			assertThat(analysis.getAction()).startsWith("Set uid.worker.id to a worker ID unique to this instance in "
					+ "its data center, from 0 to 255 (the uid.worker-bits less uid.datacenter-bits hold), or ");
		}, "uid.datacenter-bits=2", "uid.datacenter-id=1", "uid.worker.assigner=static");
	}

	@Test
	void aDataCenterIdWithTheSegmentGenerator() {
		assertFailure(this.onRedis, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Segment numbers have no data-center part")
				.contains("Property: uid.datacenter-id")
				.contains("Value: 1");
			assertThat(analysis.getAction()).contains("Remove uid.datacenter-id")
				.contains("set uid.generator to default or cached");
		}, "uid.generator=segment", "uid.segment.store=redis",
				"uid.segment.redis.key-prefix=" + this.keyPrefix + ":segment", "uid.datacenter-id=1");
	}

	private static long[] take(AbstractUidGenerator generator) {
		long[] ids = new long[IDS];
		for (int i = 0; i < IDS; i++) {
			ids[i] = generator.getUID();
		}
		return ids;
	}

	private static long distinct(long[] first, long[] second) {
		return java.util.stream.LongStream.concat(java.util.Arrays.stream(first), java.util.Arrays.stream(second))
			.distinct()
			.count();
	}

	/** Counts the IDs that do not decode to the given data center and worker. */
	private static long countNotFrom(AbstractUidGenerator generator, long[] ids, long datacenterId, long workerId) {
		long foreign = 0;
		for (long uid : ids) {
			DecodedUid decoded = generator.decode(uid);
			if (decoded.datacenterId() != datacenterId || decoded.workerId() != workerId) {
				foreign++;
			}
		}
		return foreign;
	}

}
