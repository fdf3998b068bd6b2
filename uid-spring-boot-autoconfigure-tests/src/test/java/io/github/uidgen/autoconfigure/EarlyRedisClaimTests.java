package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.testsupport.ThrowawayRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The worker ID claimed before the application context starts ({@link EarlyRedisClaim}), through whole
 * {@code SpringApplication} runs against the real Redis on 127.0.0.1:6379: the generator issues with that claim when
 * the context's connection factory talks to the same Redis, and the claim is given back whenever the context does
 * not use it (another Redis, an assigner of the application's own, a start that fails). Each run uses a key prefix of
 * its own and deletes its keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EarlyRedisClaimTests {

	private final String keyPrefix = "uid-early-" + UUID.randomUUID().toString().substring(0, 8);

	@AfterAll
	void deleteKeys() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 6379));
		factory.afterPropertiesSet();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			Set<String> keys = redis.keys("{" + this.keyPrefix + ":*");
			redis.delete(keys);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void theGeneratorIssuesWithTheWorkerIdClaimedBeforeTheContextWasRefreshed() {
		String namespace = "adopted";
		// The refresh waits until Redis shows the claim: it can only have come from the early claim.
		List<Boolean> heldBeforeRefresh = new ArrayList<>();
		try (ConfigurableApplicationContext context = application(namespace, "adopted-1")
			.listeners((ApplicationListener<ApplicationPreparedEvent>) (event) -> heldBeforeRefresh
				.add(awaitHeld(namespace, 1, Duration.ofSeconds(20))))
			.run()) {
			assertThat(heldBeforeRefresh).as("a worker ID held before the context was refreshed").containsExactly(true);
			EarlyRedisClaim early = context.getBean(EarlyRedisClaimListener.BEAN_NAME, EarlyRedisClaim.class);
			assertThat(early.isAdopted()).as("the context's assigner took the early claim").isTrue();
			AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
			long workerId = generator.status().worker().id();
			assertThat(generator.decode(generator.getUID()).workerId()).isEqualTo(workerId);
			List<WorkerClaim> claims = context.getBean(RedisWorkerIdAssigner.class)
				.fleet()
				.orElseThrow()
				.history(workerId)
				.claims()
				.stream()
				.filter((claim) -> claim.instanceId().equals("adopted-1"))
				.toList();
			assertThat(claims).as("one claim, the early one").hasSize(1);
		}
		assertThat(held(namespace)).as("worker IDs held once the application stopped").isZero();
	}

	/**
	 * The claim, the layout's record and the first marks go over uid's socket, and the application's Redis client is
	 * left unused until the application is ready; then uid renews and releases through it, and no other.
	 */
	@Test
	void theTakenClaimIsRenewedOverTheSocketUntilTheApplicationIsReadyThenThroughTheContextsConnectionFactory() {
		String namespace = "renewed";
		AtomicInteger byFirstId = new AtomicInteger(-1);
		CountingFactory factory;
		int handedOver;
		try (ConfigurableApplicationContext context = application(namespace, "renewed-1").sources(Counting.class)
			.listeners((ApplicationListener<ApplicationStartedEvent>) (event) -> {
				ConfigurableApplicationContext started = event.getApplicationContext();
				assertThat(started.getBean(StartingUidGenerator.class).awaitStarted().getUID()).isPositive();
				byFirstId.set(started.getBean(CountingFactory.class).connections.get());
			})
			.run()) {
			assertThat(context.getBean(EarlyRedisClaimListener.BEAN_NAME, EarlyRedisClaim.class).isAdopted()).isTrue();
			assertThat(byFirstId.get())
				.as("connections the context's factory gave uid by its first ID, before the application was ready")
				.isZero();
			RedisWorkerIdAssigner assigner = context.getBean(RedisWorkerIdAssigner.class);
			await("handed over to the context's factory once the application was ready").atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> !assigner.isOverOwnSocket());
			factory = context.getBean(CountingFactory.class);
			handedOver = factory.connections.get();
			assertThat(handedOver).as("connections the context's factory gave by the hand-over").isPositive();
		}
		assertThat(held(namespace)).as("worker IDs held once the application stopped").isZero();
		assertThat(factory.connections.get()).as("connections the context's factory gave, the release's included")
			.isGreaterThan(handedOver);
	}

	@Test
	void aContextOnAnotherRedisClaimsThereAndTheEarlyClaimIsGivenBack(@TempDir Path dir) {
		try (ThrowawayRedis other = ThrowawayRedis.start(dir)) {
			String namespace = "elsewhere";
			try (ConfigurableApplicationContext context = application(namespace, "elsewhere-1")
				.sources(OtherRedis.class)
				.properties("test.other-redis.port=" + other.port())
				.run()) {
				EarlyRedisClaim early = context.getBean(EarlyRedisClaimListener.BEAN_NAME, EarlyRedisClaim.class);
				assertThat(early.isAdopted()).isFalse();
				AbstractUidGenerator generator = context.getBean(StartingUidGenerator.class).awaitStarted();
				assertThat(generator.getUID()).isPositive();
				assertThat(held(namespace)).as("held on the Redis spring.data.redis.* names").isZero();
				assertThat(held(other.port(), namespace)).as("held on the context's Redis").isOne();
			}
		}
	}

	@Test
	void anApplicationWithAnAssignerOfItsOwnGivesTheEarlyClaimBack() {
		String namespace = "own-assigner";
		List<Boolean> heldBeforeRefresh = new ArrayList<>();
		try (ConfigurableApplicationContext context = application(namespace, "own-1").sources(OwnAssigner.class)
			.listeners((ApplicationListener<ApplicationPreparedEvent>) (event) -> heldBeforeRefresh
				.add(awaitHeld(namespace, 1, Duration.ofSeconds(20))))
			.run()) {
			assertThat(heldBeforeRefresh).as("the early claim, made before the refresh").containsExactly(true);
			assertThat(context.getBean(WorkerIdAssigner.class)).isInstanceOf(FixedWorkerIdAssigner.class);
			assertThat(context.getBean(EarlyRedisClaimListener.BEAN_NAME, EarlyRedisClaim.class).isAdopted())
				.isFalse();
			// Given back beside the rest of the application, once its probation has passed.
			assertThat(awaitHeld(namespace, 0, Duration.ofSeconds(20))).as("none held after the start").isTrue();
		}
	}

	@Test
	void aStartThatFailsGivesTheEarlyClaimBack() {
		String namespace = "failed";
		assertThatThrownBy(() -> application(namespace, "failed-1").sources(FailingBean.class).run())
			.hasRootCauseMessage("the application's own bean failed");
		assertThat(held(namespace)).as("held once the start failed").isZero();
	}

	@Test
	void noEarlyClaimWhenTurnedOff() {
		try (ConfigurableApplicationContext context = application("off", "off-1")
			.properties("uid.worker.redis.early-claim=false")
			.run()) {
			assertThat(context.containsBean(EarlyRedisClaimListener.BEAN_NAME)).isFalse();
			assertThat(context.getBean(StartingUidGenerator.class).awaitStarted().getUID()).isPositive();
		}
	}

	@Test
	void onlyAStandaloneRedisWithoutSslIsClaimedFromEarly() {
		assertThat(connection("spring.data.redis.sentinel.master=mymaster",
				"spring.data.redis.sentinel.nodes=127.0.0.1:26379"))
			.isNull();
		assertThat(connection("spring.data.redis.cluster.nodes=127.0.0.1:7000")).isNull();
		assertThat(connection("spring.data.redis.ssl.enabled=true")).isNull();
		assertThat(connection("spring.data.redis.url=rediss://127.0.0.1:6380")).isNull();
		assertThat(connection("spring.data.redis.client-type=jedis")).isNull();
		assertThat(connection("spring.data.redis.url=redis://user:secret@10.1.2.3:6390/4").describe())
			.isEqualTo("10.1.2.3:6390/4");
		assertThat(connection("spring.data.redis.host=10.1.2.3", "spring.data.redis.database=2").describe())
			.isEqualTo("10.1.2.3:6379/2");
	}

	/** The claim's own socket reaches the Redis, database and user that Spring Boot's factory would, as it would. */
	@Test
	void theClaimsOwnSocketConnectsAsTheSettingsSay() {
		assertThat(connection("spring.data.redis.url=redis://user:secret@10.1.2.3:6390/4").direct())
			.isEqualTo(new StandaloneRedis("10.1.2.3", 6390, 4, "user", "secret", null, Duration.ofSeconds(10),
					Duration.ofSeconds(60)));
		assertThat(connection("spring.data.redis.host=10.1.2.3", "spring.data.redis.database=2",
				"spring.data.redis.password=pw", "spring.data.redis.client-name=orders",
				"spring.data.redis.timeout=2s", "spring.data.redis.connect-timeout=500ms")
			.direct())
			.isEqualTo(new StandaloneRedis("10.1.2.3", 6379, 2, null, "pw", "orders", Duration.ofMillis(500),
					Duration.ofSeconds(2)));
	}

	private static EarlyRedisConnection connection(String... properties) {
		java.util.Map<String, String> map = new java.util.HashMap<>();
		for (String property : properties) {
			int equals = property.indexOf('=');
			map.put(property.substring(0, equals), property.substring(equals + 1));
		}
		return EarlyRedisConnection.of(new Binder(new MapConfigurationPropertySource(map)));
	}

	private SpringApplicationBuilder application(String namespace, String instanceId) {
		return new SpringApplicationBuilder(UidApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
					"uid.worker.assigner=redis", "uid.worker.redis.key-prefix=" + this.keyPrefix,
					"uid.worker.redis.namespace=" + namespace, "uid.worker.instance-id=" + instanceId,
					// A new registry on a Redis that runs for long waits nothing; the margin must still cover the
					// mark's lead.
					"uid.worker.redis.registry-loss-margin=300ms", "uid.mark.reservation=100ms",
					"uid.cached.max-ahead=100ms", "spring.main.banner-mode=off");
	}

	/** Waits, within a bound, until the namespace's registry on 127.0.0.1:6379 shows so many worker IDs held. */
	private boolean awaitHeld(String namespace, long count, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		while (System.nanoTime() < deadline) {
			if (held(namespace) == count) {
				return true;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return false;
	}

	/** How many worker IDs the namespace's registry on 127.0.0.1:6379 shows held. */
	private long held(String namespace) {
		return held(6379, namespace);
	}

	private long held(int port, String namespace) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		try {
			RedisWorkerIdAssigner reader = RedisWorkerIdAssigner.builder(factory)
				.keyPrefix(this.keyPrefix)
				.namespace(namespace)
				.instanceId("reader")
				.build();
			return reader.fleet().orElseThrow().read(10).held();
		}
		finally {
			factory.destroy();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, StaticWorkerIdAssignerAutoConfiguration.class,
			JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
			UidGeneratorAutoConfiguration.class })
	static class UidApplication {

	}

	@Configuration(proxyBeanMethods = false)
	static class OtherRedis {

		@Bean
		RedisConnectionFactory otherRedis(org.springframework.core.env.Environment environment) {
			return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
					environment.getRequiredProperty("test.other-redis.port", Integer.class)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Counting {

		@Bean
		CountingFactory countingFactory() {
			return new CountingFactory();
		}

	}

	/** The context's factory on 127.0.0.1:6379, counting the connections it hands out. */
	static class CountingFactory extends LettuceConnectionFactory {

		final AtomicInteger connections = new AtomicInteger();

		CountingFactory() {
			super(new RedisStandaloneConfiguration("127.0.0.1", 6379));
		}

		@Override
		public RedisConnection getConnection() {
			this.connections.incrementAndGet();
			return super.getConnection();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingBean {

		@Bean
		Object failing() {
			throw new IllegalStateException("the application's own bean failed");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnAssigner {

		@Bean
		WorkerIdAssigner ownAssigner() {
			return new FixedWorkerIdAssigner(7);
		}

	}

}
