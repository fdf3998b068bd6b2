package io.github.uidgen.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import io.github.uidgen.snowflake.AbstractUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.redis.RegistryTrust;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static io.github.uidgen.autoconfigure.InvalidConfigurationTests.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisWorkerIdAssignerAutoConfiguration} against the real Redis on 127.0.0.1:6379, through the
 * application's auto-configured connection factory. Each run uses a key prefix of its own and deletes its keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisWorkerIdAssignerAutoConfigurationTests {

	private final String keyPrefix = "uid-ac-" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				StaticWorkerIdAssignerAutoConfiguration.class, JdbcWorkerIdAssignerAutoConfiguration.class,
				RedisWorkerIdAssignerAutoConfiguration.class, UidGeneratorAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379",
				"uid.worker.assigner=redis", "uid.worker.redis.key-prefix=" + this.keyPrefix,
				// The registry of a fresh key prefix is new; waiting out the default margin would only slow the test.
				// The margin must still cover how far ahead of the clock a generator may record its mark.
				"uid.worker.redis.registry-loss-margin=300ms", "uid.mark.reservation=100ms",
				"uid.cached.max-ahead=100ms");

	@AfterAll
	void deleteKeys() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 6379));
		factory.afterPropertiesSet();
		try {
			StringRedisTemplate redis = new StringRedisTemplate(factory);
			Set<String> keys = redis.keys("{" + this.keyPrefix + ":*");
			assertThat(keys).isNotEmpty();
			redis.delete(keys);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void instancesClaimDifferentWorkerIdsThroughTheApplicationsRedis() {
		this.contextRunner.withPropertyValues("uid.worker.instance-id=first").run((first) -> {
			assertThat(first).hasSingleBean(RedisWorkerIdAssigner.class);
			AbstractUidGenerator one = first.getBean(StartingUidGenerator.class).awaitStarted();
			assertThat(one.status().worker().assigner()).isEqualTo("redis");
			assertThat(one.decode(one.getUID()).workerId()).isEqualTo(one.status().worker().id());
			this.contextRunner.withPropertyValues("uid.worker.instance-id=second", "uid.generator=cached")
				.run((second) -> {
					AbstractUidGenerator two = second.getBean(StartingUidGenerator.class).awaitStarted();
					assertThat(two.status().worker().id()).isNotEqualTo(one.status().worker().id());
				});
		});
	}

	/**
	 * Lettuce doubles its wait between reconnection attempts up to 30 s; capped, renewals reach a Redis that is back
	 * within half a second, so an outage costs no more than it lasts.
	 */
	@Test
	void theApplicationsLettuceClientReconnectsWithinHalfASecondOnceRedisIsBack() {
		this.contextRunner.run((context) -> {
			Delay delay = context.getBean(ClientResources.class).reconnectDelay();
			assertThat(delay.createDelay(1)).isEqualTo(Duration.ofMillis(10));
			assertThat(delay.createDelay(30)).isEqualTo(Duration.ofMillis(500));
		});
		this.contextRunner.withPropertyValues("uid.worker.redis.max-reconnect-delay=2s")
			.run((context) -> assertThat(context.getBean(ClientResources.class).reconnectDelay().createDelay(30))
				.isEqualTo(Duration.ofSeconds(2)));
		this.contextRunner.withPropertyValues("uid.worker.redis.max-reconnect-delay=0")
			.run((context) -> assertThat(context.getBean(ClientResources.class).reconnectDelay().createDelay(30))
				.as("Lettuce's own back-off").isEqualTo(Duration.ofSeconds(30)));
	}

	@Test
	void aNegativeReconnectDelayFailsStartUpNamingTheProperty() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.redis.max-reconnect-delay")
				.contains("cannot be negative");
			assertThat(analysis.getAction()).contains("500ms");
		}, "uid.worker.redis.max-reconnect-delay=-1s");
	}

	@Test
	void restartedInstanceGetsItsWorkerIdBack() {
		long[] workerIds = new long[2];
		for (int i = 0; i < 2; i++) {
			int run = i;
			this.contextRunner.withPropertyValues("uid.worker.instance-id=restarted", "uid.worker.redis.namespace=again")
				.run((context) -> workerIds[run] = context.getBean(StartingUidGenerator.class).awaitStarted().status().worker().id());
		}
		assertThat(workerIds[1]).isEqualTo(workerIds[0]);
	}

	@Test
	void settingsComeFromProperties() {
		this.contextRunner
			.withPropertyValues("uid.worker.redis.namespace=orders", "uid.worker.redis.lease-duration=12s",
					"uid.worker.redis.heartbeat-interval=3s", "uid.worker.instance-id=configured",
					"uid.worker.redis.registry-trust=none", "uid.worker.redis.allow-evicting-policy=true")
			.run((context) -> {
				RedisWorkerIdAssigner assigner = context.getBean(RedisWorkerIdAssigner.class);
				assertThat(assigner.getKeyPrefix()).isEqualTo(this.keyPrefix);
				assertThat(assigner.getNamespace()).isEqualTo("orders");
				assertThat(assigner.getKeyTag()).isEqualTo("{" + this.keyPrefix + ":orders}");
				assertThat(assigner.getLeaseDuration()).isEqualTo(Duration.ofSeconds(12));
				assertThat(assigner.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(3));
				assertThat(assigner.getRegistryLossMargin()).isEqualTo(Duration.ofMillis(300));
				assertThat(assigner.getInstanceId()).isEqualTo("configured");
				assertThat(assigner.getRegistryTrust()).isEqualTo(RegistryTrust.NONE);
				assertThat(assigner.isAllowEvictingPolicy()).isTrue();
			});
	}

	@Test
	void byDefaultARegistryTheSameRedisProcessWroteIsTrusted() {
		this.contextRunner.run((context) -> assertThat(context.getBean(RedisWorkerIdAssigner.class).getRegistryTrust())
			.isEqualTo(RegistryTrust.SAME_SERVER));
	}

	@Test
	void byDefaultARedisThatMayEvictTheRegistryIsRefused() {
		this.contextRunner.run((context) -> assertThat(context.getBean(RedisWorkerIdAssigner.class)
			.isAllowEvictingPolicy()).isFalse());
	}

	@Test
	void defaultInstanceIdIncludesTheServerPortSoRestartsReclaimTheirWorkerId() {
		this.contextRunner.withPropertyValues("server.port=8124")
			.run((context) -> assertThat(context.getBean(RedisWorkerIdAssigner.class).getInstanceId())
				.endsWith(":8124"));
	}

	@Test
	void applicationsAssignerWins() {
		FixedWorkerIdAssigner own = new FixedWorkerIdAssigner(2);
		this.contextRunner.withBean(WorkerIdAssigner.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(RedisWorkerIdAssigner.class);
			assertThat(context.getBean(WorkerIdAssigner.class)).isSameAs(own);
		});
	}

	@Test
	void everyWorkerIdLeased() {
		// One worker bit: two instances take both worker IDs, a third finds none.
		ApplicationContextRunner small = this.contextRunner.withPropertyValues("uid.worker-bits=1",
				"uid.worker.redis.namespace=small");
		small.withPropertyValues("uid.worker.instance-id=a")
			.run((a) -> small.withPropertyValues("uid.worker.instance-id=b")
				.run((b) -> assertFailure(small, (analysis) -> {
					assertThat(analysis.getDescription()).contains("found no worker ID from 0 to 1")
						.contains("2 live leases")
						.contains("Property: uid.worker-bits")
						.contains("Value: 1");
					assertThat(analysis.getAction()).contains("Raise uid.worker-bits");
				}, "uid.worker.assigner=redis", "uid.worker-bits=1", "uid.worker.instance-id=c")));
	}

	@Test
	void unreachableRedis() {
		assertFailure(this.contextRunner, (analysis) -> {
			assertThat(analysis.getDescription()).contains("Property: uid.worker.assigner").contains("Value: redis");
			assertThat(analysis.getAction()).contains("spring.data.redis.host");
		}, "uid.worker.assigner=redis", "spring.data.redis.port=1", "spring.data.redis.connect-timeout=2s");
	}

	@Test
	void noConnectionFactory() {
		assertFailure(new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RedisWorkerIdAssignerAutoConfiguration.class,
					UidGeneratorAutoConfiguration.class))
			.withPropertyValues("uid.worker.assigner=redis"), (analysis) -> {
				assertThat(analysis.getDescription()).contains("needs a RedisConnectionFactory")
					.contains("Value: redis");
				assertThat(analysis.getAction()).contains("spring.data.redis");
			});
	}

	@Test
	void withoutSpringDataRedisTheRedisAssignerIsNotConfigured() {
		assertFailure(this.contextRunner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class)),
				(analysis) -> assertThat(analysis.getDescription()).contains("needs Spring Data Redis"));
	}

}
