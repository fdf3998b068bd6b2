package io.github.uidgen.autoconfigure.actuate;


import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidHealthContributorAutoConfiguration}.
 */
class UidHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class,
				UidHealthContributorAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(1));

	@Test
	void healthIndicatorIsConfigured() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(UidHealthIndicator.class).hasBean("uidHealthIndicator");
			assertThat(context.getBean(UidHealthIndicator.class).health().getDetails()).containsEntry("workerId", 1L);
		});
	}

	@Test
	void expiryWarningComesFromProperties() {
		// The default layout runs out in 2094: a window of 100 years puts today inside it.
		this.contextRunner.withPropertyValues("uid.health.expiry-warning=36500d")
			.run((context) -> assertThat(context.getBean(UidHealthIndicator.class).health().getDetails())
				.containsKey("warning"));
	}

	@Test
	void healthIndicatorIsNotConfiguredWhenDisabled() {
		this.contextRunner.withPropertyValues("management.health.uid.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
				.doesNotHaveBean(UidHealthIndicator.class));
	}

	@Test
	void healthIndicatorIsNotConfiguredWithoutSpringBootHealth() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
				.doesNotHaveBean(UidHealthIndicator.class));
	}

	@Test
	void healthIndicatorIsNotConfiguredWhenUidIsSwitchedOff() {
		this.contextRunner.withPropertyValues("uid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UidHealthIndicator.class));
	}

	@Test
	void applicationsHealthIndicatorWins() {
		HealthIndicator own = () -> Health.up().build();
		this.contextRunner.withBean("uidHealthIndicator", HealthIndicator.class, () -> own)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(UidHealthIndicator.class);
				assertThat(context.getBean("uidHealthIndicator")).isSameAs(own);
			});
	}

	@Test
	void expiryWarningOfZeroNeverWarns() {
		this.contextRunner.withPropertyValues("uid.health.expiry-warning=0s")
			.run((context) -> assertThat(context.getBean(UidHealthIndicator.class).health().getDetails())
				.doesNotContainKey("warning"));
	}

}
