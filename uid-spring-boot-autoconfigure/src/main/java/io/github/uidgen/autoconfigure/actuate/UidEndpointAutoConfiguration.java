package io.github.uidgen.autoconfigure.actuate;

import java.time.Duration;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.segment.SegmentStore;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.support.HostEnvironment;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the {@code uid} actuator endpoint when the actuator is present and the endpoint is available
 * (enabled and exposed). It decodes opaque texts only with {@code management.endpoint.uid.parse-opaque=true}, and
 * reads the worker-ID assigner's and the segment store's records for {@code fleet} and {@code issuedBy}, for at most
 * {@code management.endpoint.uid.fleet-timeout} (3 s) each.
 */
@AutoConfiguration(after = UidGeneratorAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "uid.enabled", matchIfMissing = true)
@ConditionalOnBean(UidGenerator.class)
@ConditionalOnAvailableEndpoint(UidEndpoint.class)
public final class UidEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	UidEndpoint uidEndpoint(UidGenerator generator, ObjectProvider<SegmentUidGenerators> segmentGenerators,
			ObjectProvider<UidFormats> formats, ObjectProvider<WorkerIdAssigner> assigner,
			ObjectProvider<SegmentStore> segmentStore, Environment environment) {
		Duration fleetTimeout = Binder.get(environment)
			.bind(UidEndpoint.FLEET_TIMEOUT, Duration.class)
			.orElse(UidEndpoint.DEFAULT_FLEET_TIMEOUT);
		if (fleetTimeout.isNegative() || fleetTimeout.isZero()) {
			throw new InvalidConfigurationPropertyValueException(UidEndpoint.FLEET_TIMEOUT, fleetTimeout,
					"The fleet endpoint needs time to read the store: set a positive duration, such as 3s.");
		}
		String port = environment.getProperty("server.port");
		String instanceId = environment.getProperty("uid.worker.instance-id",
				HostEnvironment.current().defaultInstanceId("0".equals(port) ? null : port));
		return new UidEndpoint(generator, segmentGenerators.getIfUnique(), formats.getIfAvailable(),
				environment.getProperty(UidEndpoint.PARSE_OPAQUE, Boolean.class, false), UidClock.SYSTEM,
				new UidEndpoint.Stores(assigner.getIfUnique(), segmentStore.getIfUnique(), fleetTimeout, instanceId));
	}

}
