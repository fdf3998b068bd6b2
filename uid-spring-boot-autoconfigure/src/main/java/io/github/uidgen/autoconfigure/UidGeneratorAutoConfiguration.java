package io.github.uidgen.autoconfigure;

import io.github.uidgen.UidGenerator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the {@link io.github.uidgen.UidGenerator} chosen by {@code uid.generator}, built at start-up so
 * a bad setting or an unreachable worker-ID or segment store fails fast, and closed on shutdown so its threads stop
 * and its worker ID is released.
 */
@AutoConfiguration(after = { StaticWorkerIdAssignerAutoConfiguration.class,
		JdbcWorkerIdAssignerAutoConfiguration.class, RedisWorkerIdAssignerAutoConfiguration.class,
		ZookeeperWorkerIdAssignerAutoConfiguration.class },
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(UidProperties.class)
@Import({ DefaultUidGeneratorConfiguration.class, CachedUidGeneratorConfiguration.class,
		SegmentUidGeneratorConfiguration.class, UnknownGeneratorConfiguration.class })
public final class UidGeneratorAutoConfiguration {

	@Bean
	static UidSettingsCheck uidSettingsCheck(Environment environment) {
		return new UidSettingsCheck(environment);
	}

	@Bean
	UidGeneratorLifecycle uidGeneratorLifecycle(ObjectProvider<UidGenerator> generator) {
		return new UidGeneratorLifecycle(generator);
	}

	@Bean
	UidGeneratorStartWait uidGeneratorStartWait(ObjectProvider<UidGenerator> generator) {
		return new UidGeneratorStartWait(generator);
	}

}
