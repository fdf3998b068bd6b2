package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.UidClock;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.text.UidFormats;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the {@code uid} actuator endpoint when the actuator is present and the endpoint is available
 * (enabled and exposed). It decodes opaque texts only with {@code management.endpoint.uid.parse-opaque=true}.
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
			ObjectProvider<UidFormats> formats, Environment environment) {
		return new UidEndpoint(generator, segmentGenerators.getIfUnique(), formats.getIfAvailable(),
				environment.getProperty(UidEndpoint.PARSE_OPAQUE, Boolean.class, false), UidClock.SYSTEM);
	}

}
