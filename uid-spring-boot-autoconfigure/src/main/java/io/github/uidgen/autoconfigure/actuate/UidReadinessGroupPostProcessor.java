package io.github.uidgen.autoconfigure.actuate;

import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.core.env.Environment;

/**
 * Adds the {@code uid} health component to the {@code readiness} group once Spring Boot's availability probes have
 * made it (on Kubernetes, or with {@code management.endpoint.health.probes.enabled}); it runs after Boot's own
 * post-processor, as its auto-configuration comes after Boot's. A readiness group the application configured itself
 * ({@code management.endpoint.health.group.readiness.include}) is left as it is: the application decides.
 */
final class UidReadinessGroupPostProcessor implements HealthEndpointGroupsPostProcessor {

	static final String READINESS_INCLUDE = "management.endpoint.health.group.readiness.include";

	private final boolean configuredByTheApplication;

	UidReadinessGroupPostProcessor(Environment environment) {
		this.configuredByTheApplication = environment.containsProperty(READINESS_INCLUDE);
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		HealthEndpointGroup readiness = groups.get(UidReadinessHealthEndpointGroups.READINESS);
		if (this.configuredByTheApplication || readiness == null
				|| readiness.isMember(UidReadinessHealthEndpointGroups.UID)) {
			return groups;
		}
		return new UidReadinessHealthEndpointGroups(groups, readiness);
	}

}
