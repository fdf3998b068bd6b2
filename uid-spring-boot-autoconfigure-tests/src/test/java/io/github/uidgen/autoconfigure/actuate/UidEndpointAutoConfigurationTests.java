package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidEndpointAutoConfiguration}.
 */
class UidEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidEndpointAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(1));

	@Test
	void endpointIsConfiguredWhenExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=uid").run((context) -> {
			assertThat(context).hasSingleBean(UidEndpoint.class);
			assertThat(context.getBean(UidEndpoint.class).describe().workerId()).isEqualTo(1);
		});
	}

	@Test
	void theFleetAnswersWithTheConfiguredInstanceIdForAnAssignerWithoutSharedRecord() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=uid", "uid.worker.instance-id=checkout-7")
			.run((context) -> assertThat(context.getBean(UidEndpoint.class).fleet().workers().list())
				.singleElement()
				.satisfies((worker) -> assertThat(worker.instanceId()).isEqualTo("checkout-7")));
	}

	@Test
	void aFleetTimeoutThatIsNotPositiveFailsStartNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=uid",
					"management.endpoint.uid.fleet-timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("management.endpoint.uid.fleet-timeout")
				.hasMessageContaining("positive duration"));
	}

	@Test
	void aFleetTimeoutThatIsNoDurationFailsStartNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=uid",
					"management.endpoint.uid.fleet-timeout=soon")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("management.endpoint.uid.fleet-timeout"));
	}

	@Test
	void endpointIsNotConfiguredWhenNotExposed() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
			.doesNotHaveBean(UidEndpoint.class));
	}

	@Test
	void endpointIsNotConfiguredWhenAccessIsNone() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=uid", "management.endpoint.uid.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(UidEndpoint.class));
	}

	@Test
	void endpointIsNotConfiguredWithoutTheActuator() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=uid")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasSingleBean(UidGenerator.class)
				.doesNotHaveBean(UidEndpoint.class));
	}

	@Test
	void endpointIsNotConfiguredWhenUidIsSwitchedOff() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=uid", "uid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UidEndpoint.class));
	}

	@Test
	void applicationsEndpointWins() {
		UidEndpoint own = new UidEndpoint(new FixedLayoutGenerator());
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=uid")
			.withBean(UidEndpoint.class, () -> own)
			.run((context) -> assertThat(context.getBean(UidEndpoint.class)).isSameAs(own));
	}

}
