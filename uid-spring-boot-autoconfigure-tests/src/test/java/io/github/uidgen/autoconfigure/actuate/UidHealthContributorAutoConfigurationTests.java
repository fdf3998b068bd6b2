package io.github.uidgen.autoconfigure.actuate;


import java.time.Duration;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.LeaseLosingAssigner;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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


	/** Spring Boot's health endpoint and availability probes, as on Kubernetes, around an assigner that loses its lease. */
	private ApplicationContextRunner withProbes(WorkerIdAssigner assigner) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					HealthContributorRegistryAutoConfiguration.class, HealthContributorAutoConfiguration.class,
					AvailabilityHealthContributorAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
					AvailabilityProbesAutoConfiguration.class, UidGeneratorAutoConfiguration.class,
					UidHealthContributorAutoConfiguration.class))
			.withPropertyValues("management.endpoint.health.probes.enabled=true",
					"uid.worker.reclaim-lost-lease=false")
			.withBean(WorkerIdAssigner.class, () -> assigner);
	}

	@Test
	void theReadinessProbeFollowsTheUidComponentAndTheLivenessProbeDoesNot() {
		LeaseLosingAssigner assigner = new LeaseLosingAssigner();
		withProbes(assigner).run((context) -> {
			// What a started application has published by now.
			AvailabilityChangeEvent.publish(context, LivenessState.CORRECT);
			AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			assertThat(status(health, "readiness")).isEqualTo(Status.UP);
			assertThat(components(health, "readiness")).contains("uid", "readinessState");
			assertThat(components(health, "liveness")).doesNotContain("uid");

			assigner.loseWorkerOne();
			await().atMost(Duration.ofSeconds(10)).until(() -> status(health, "readiness") != Status.UP);
			assertThat(status(health, "readiness")).as("an instance that cannot issue IDs is not ready")
				.isEqualTo(Status.DOWN);
			assertThat(status(health, "liveness")).as("a lost lease is no reason to restart the instance")
				.isEqualTo(Status.UP);
		});
	}

	@Test
	void theReadinessGroupAnApplicationConfiguredIsLeftAsItIs() {
		withProbes(new LeaseLosingAssigner())
			.withPropertyValues("management.endpoint.health.group.readiness.include=readinessState")
			.run((context) -> assertThat(components(context.getBean(HealthEndpoint.class), "readiness"))
				.doesNotContain("uid"));
	}

	@Test
	void theUidComponentStaysOutOfTheReadinessGroupWhenSwitchedOff() {
		withProbes(new LeaseLosingAssigner()).withPropertyValues("uid.health.readiness=false")
			.run((context) -> assertThat(components(context.getBean(HealthEndpoint.class), "readiness"))
				.doesNotContain("uid"));
	}

	private static Status status(HealthEndpoint health, String group) {
		return health.healthForPath(group).getStatus();
	}

	private static java.util.Set<String> components(HealthEndpoint health, String group) {
		HealthDescriptor descriptor = health.healthForPath(group);
		return (descriptor instanceof CompositeHealthDescriptor composite) ? composite.getComponents().keySet()
				: java.util.Set.of();
	}

}
