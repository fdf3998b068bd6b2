package io.github.uidgen.snowflake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import io.github.uidgen.UidClock;
import io.github.uidgen.snowflake.TestGenerators.Kind;
import io.github.uidgen.testsupport.Duplicates;
import io.github.uidgen.testsupport.PartitionProxy;
import io.github.uidgen.testsupport.TestRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.uidgen.snowflake.TestGenerators.LAYOUT;
import static io.github.uidgen.snowflake.TestGenerators.minUnit;
import static io.github.uidgen.snowflake.TestGenerators.take;
import static io.github.uidgen.snowflake.TestGenerators.unitOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What remains of a registry restored in place at default settings: a holder cut off from Redis during the restore
 * cannot renew within a newcomer's probation, so it neither stops nor raises its worker's mark while the newcomer
 * waits. When another holder of the namespace noticed the restore meanwhile, the newcomer gives its claim back and
 * waits the registry-loss margin, which covers whatever the cut-off holder may issue on its lease. When nobody
 * noticed, the newcomer may repeat IDs the cut-off holder issues until it stops: cut off, it issues on its lease, so
 * only IDs up to its last renewal before it was cut off plus the lease less the clock skew (28 s at the defaults),
 * whatever the generator.
 */
class RedisRestoredInPlaceCutOffTests {

	private static final String TAG = "{uid-test:cut-off}";

	private static final List<String> KEYS = List.of(TAG + ":leases", TAG + ":tokens", TAG + ":holders",
			TAG + ":instances", TAG + ":marks", TAG + ":generation", TAG + ":server");

	/** How far past its last renewal a holder cut off issues at the defaults: the 30 s lease less the 2 s skew. */
	private static final Duration LEASE_LESS_SKEW = RedisWorkerIdAssigner.DEFAULT_LEASE_DURATION
		.minus(AbstractUidGenerator.DEFAULT_MAX_CLOCK_SKEW);

	@Test
	void aHolderCutOffDuringTheRestoreRepeatsNothingWhenAnotherHolderNoticedTheRestore(@TempDir Path dir)
			throws Exception {
		try (Stores stores = Stores.start(dir)) {
			AbstractUidGenerator cutOff = stores.track(atDefaults(Kind.DEFAULT, stores.viaProxy(), "cut-off"));
			// The other holder renews every 1.5 s, on its own schedule, but never before the newcomer's claim, whose
			// worker ID it notes.
			AtomicReference<Object> newcomersFirstClaim = new AtomicReference<>();
			RenewalAfterClaim othersRenewals = new RenewalAfterClaim(assigner(stores.direct(), "other"), () -> {
				Object claimed = new StringRedisTemplate(stores.direct()).opsForHash().get(TAG + ":instances", "newcomer");
				newcomersFirstClaim.compareAndSet(null, claimed);
				return claimed != null;
			});
			AbstractUidGenerator other = stores.track(atDefaults(Kind.DEFAULT, othersRenewals));
			Issuer cutOffIssuing = Issuer.untilRefused(cutOff, "cut-off");
			Issuer otherIssuing = Issuer.untilRefused(other, "other");

			stores.proxy().partition();
			othersRenewals.arm();
			long restoringAt = System.currentTimeMillis();
			stores.redis().restoreInPlace(KEYS, stores.dump());
			AbstractUidGenerator newcomer = stores.track(atDefaults(Kind.DEFAULT, stores.direct(), "newcomer"));
			assertThat(newcomersFirstClaim.get()).as("the newcomer's claim took the cut-off holder's worker")
				.isEqualTo(Long.toString(cutOff.status().worker().id()));
			long[] issuedByNewcomer = take(newcomer, 20_000);
			assertThat(LAYOUT.startMillis(minUnit(issuedByNewcomer)))
				.as("the newcomer gave its claim back and issued nothing inside the registry-loss margin")
				.isGreaterThanOrEqualTo(restoringAt + RedisWorkerIdAssigner.DEFAULT_REGISTRY_LOSS_MARGIN.toMillis());

			assertThat(cutOffIssuing.awaitRefused(Duration.ofSeconds(60))).as("the cut-off holder stops").isTrue();
			long[] issuedByCutOff = cutOffIssuing.stop();
			assertThat(issuedByCutOff).isNotEmpty();
			// The other holder's worker ID was absent from the restored registry and its lease could not have expired:
			// it wrote its lease again at that renewal and went on issuing.
			assertThat(otherIssuing.isRunning()).as("the other holder carries on").isTrue();
			assertThat(other.status().worker().leaseLost()).isFalse();
			assertThat(Duplicates.count(issuedByCutOff, otherIssuing.stop(), issuedByNewcomer)).as("IDs issued twice")
				.isZero();
			stores.proxy().heal();
		}
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void aHolderCutOffDuringTheRestoreWhileNobodyNoticesMayRepeatOnlyIdsUpToTheMarkItRecordedBefore(Kind kind,
			@TempDir Path dir) throws Exception {
		try (Stores stores = Stores.start(dir)) {
			AbstractUidGenerator cutOff = stores.track(atDefaults(kind, stores.viaProxy(), "cut-off"));
			Issuer cutOffIssuing = Issuer.untilRefused(cutOff, "cut-off");
			RedisRestoredInPlaceTests.awaitAhead(cutOff, (kind == Kind.CACHED) ? 1_000 : 0);

			stores.proxy().partition();
			long cutOffAt = System.currentTimeMillis();
			stores.redis().restoreInPlace(KEYS, stores.dump());
			AbstractUidGenerator newcomer = stores.track(atDefaults(kind, stores.direct(), "newcomer"));
			assertThat(newcomer.status().worker().id()).isEqualTo(cutOff.status().worker().id());
			long[] issuedByNewcomer = take(newcomer, 20_000);
			assertThat(cutOffIssuing.awaitRefused(Duration.ofSeconds(60))).as("the cut-off holder stops").isTrue();
			long[] issuedByCutOff = cutOffIssuing.stop();

			Set<Long> byCutOff = Arrays.stream(issuedByCutOff).boxed().collect(Collectors.toSet());
			List<Long> repeated = Arrays.stream(issuedByNewcomer).filter(byCutOff::contains).boxed().toList();
			long bound = cutOffAt + LEASE_LESS_SKEW.toMillis();
			assertThat(repeated).as("%s IDs issued by both, all no later than %s ms after the holder was cut off",
					repeated.size(), bound - cutOffAt)
				.allSatisfy((id) -> assertThat(LAYOUT.startMillis(unitOf(id))).isLessThanOrEqualTo(bound));
			stores.proxy().heal();
		}
	}

	/** A generator at every default setting but the test layout (16 IDs a millisecond). */
	private static AbstractUidGenerator atDefaults(Kind kind, LettuceConnectionFactory connectionFactory,
			String instanceId) {
		return atDefaults(kind, assigner(connectionFactory, instanceId));
	}

	private static AbstractUidGenerator atDefaults(Kind kind, WorkerIdAssigner assigner) {
		return switch (kind) {
			case DEFAULT -> DefaultUidGenerator.builder()
				.layout(LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.build();
			case CACHED -> CachedUidGenerator.builder()
				.layout(LAYOUT)
				.clock(UidClock.SYSTEM)
				.workerIdAssigner(assigner)
				.build();
		};
	}

	private static RedisWorkerIdAssigner assigner(LettuceConnectionFactory connectionFactory, String instanceId) {
		return RedisWorkerIdAssigner.builder(connectionFactory)
			.keyPrefix("uid-test")
			.namespace("cut-off")
			.instanceId(instanceId)
			.build();
	}

	/**
	 * A throwaway Redis with a brand-new registry and a dump of it, reached directly and through a proxy that can cut
	 * an instance off; closes the generators it tracks, then the rest.
	 */
	private static final class Stores implements AutoCloseable {

		private final ThrowawayRedis redis;

		private final PartitionProxy proxy;

		private final LettuceConnectionFactory direct;

		private final LettuceConnectionFactory viaProxy;

		private final Map<String, byte[]> dump;

		private final List<AbstractUidGenerator> generators = new ArrayList<>();

		private Stores(ThrowawayRedis redis, PartitionProxy proxy, LettuceConnectionFactory direct,
				LettuceConnectionFactory viaProxy, Map<String, byte[]> dump) {
			this.redis = redis;
			this.proxy = proxy;
			this.direct = direct;
			this.viaProxy = viaProxy;
			this.dump = dump;
		}

		static Stores start(Path dir) {
			ThrowawayRedis redis = ThrowawayRedis.start(dir.resolve("redis"));
			PartitionProxy proxy = PartitionProxy.start(redis.port());
			LettuceConnectionFactory direct = redis.connectionFactory();
			redis.cli(TestRedis.markNewRegistryCommand(TAG));
			return new Stores(redis, proxy, direct, TestRedis.connectionFactory(proxy.port()), redis.dump(KEYS));
		}

		AbstractUidGenerator track(AbstractUidGenerator generator) {
			this.generators.add(generator);
			return generator;
		}

		ThrowawayRedis redis() {
			return this.redis;
		}

		PartitionProxy proxy() {
			return this.proxy;
		}

		LettuceConnectionFactory direct() {
			return this.direct;
		}

		LettuceConnectionFactory viaProxy() {
			return this.viaProxy;
		}

		/** The registry as it was before anyone claimed: no worker ID taken. */
		Map<String, byte[]> dump() {
			return this.dump;
		}

		@Override
		public void close() {
			this.proxy.heal();
			this.generators.forEach(AbstractUidGenerator::close);
			this.viaProxy.destroy();
			this.direct.destroy();
			this.proxy.close();
			this.redis.close();
		}

	}

}
