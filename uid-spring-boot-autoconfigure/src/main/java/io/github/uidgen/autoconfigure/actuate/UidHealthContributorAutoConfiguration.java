package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.autoconfigure.UidProperties;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the {@code uid} health component when Spring Boot's health support is present, and makes it part of
 * the readiness group of Spring Boot's availability probes.
 */
@AutoConfiguration(after = UidGeneratorAutoConfiguration.class,
		afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnBean(UidGenerator.class)
@ConditionalOnEnabledHealthIndicator("uid")
@EnableConfigurationProperties(UidProperties.class)
public final class UidHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "uidHealthIndicator")
	UidHealthIndicator uidHealthIndicator(UidGenerator generator, UidProperties properties,
			ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		return new UidHealthIndicator(generator, UidClock.SYSTEM, properties.getHealth().getExpiryWarning(),
				segmentGenerators.getIfUnique());
	}

	/**
	 * The readiness probe follows the {@code uid} component: an instance that cannot issue IDs leaves the load
	 * balancer, and comes back once it issues again. The liveness probe does not: restarting an instance cures no
	 * store outage.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthEndpointGroupsPostProcessor.class)
	@ConditionalOnBooleanProperty(name = "uid.health.readiness", matchIfMissing = true)
	static class ReadinessGroupConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "uidReadinessGroupPostProcessor")
		static UidReadinessGroupPostProcessor uidReadinessGroupPostProcessor(Environment environment) {
			return new UidReadinessGroupPostProcessor(environment);
		}

	}

}
