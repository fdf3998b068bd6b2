package io.github.uidgen.autoconfigure.actuate;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Spring Boot's health groups with the {@code uid} component added to the {@code readiness} group: the readiness
 * probe, and the load balancer that reads it, see an instance that cannot issue IDs as not ready, and ready again
 * once it issues. Every other group, the liveness one included, is left as it is.
 */
final class UidReadinessHealthEndpointGroups implements HealthEndpointGroups, AdditionalPathsMapper {

	static final String READINESS = "readiness";

	static final String UID = "uid";

	private final HealthEndpointGroups groups;

	private final HealthEndpointGroup readiness;

	UidReadinessHealthEndpointGroups(HealthEndpointGroups groups, HealthEndpointGroup readiness) {
		this.groups = groups;
		this.readiness = new WithUid(readiness);
	}

	@Override
	public HealthEndpointGroup getPrimary() {
		return this.groups.getPrimary();
	}

	@Override
	public Set<String> getNames() {
		return this.groups.getNames();
	}

	@Override
	public @Nullable HealthEndpointGroup get(String name) {
		return READINESS.equals(name) ? this.readiness : this.groups.get(name);
	}

	@Override
	public @Nullable List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace webServerNamespace) {
		return (this.groups instanceof AdditionalPathsMapper mapper)
				? mapper.getAdditionalPaths(endpointId, webServerNamespace) : null;
	}

	/** A group that also counts the {@code uid} component among its members. */
	private static final class WithUid implements HealthEndpointGroup {

		private final HealthEndpointGroup group;

		WithUid(HealthEndpointGroup group) {
			this.group = group;
		}

		@Override
		public boolean isMember(String name) {
			return UID.equals(name) || this.group.isMember(name);
		}

		@Override
		public boolean showComponents(SecurityContext securityContext) {
			return this.group.showComponents(securityContext);
		}

		@Override
		public boolean showDetails(SecurityContext securityContext) {
			return this.group.showDetails(securityContext);
		}

		@Override
		public StatusAggregator getStatusAggregator() {
			return this.group.getStatusAggregator();
		}

		@Override
		public HttpCodeStatusMapper getHttpCodeStatusMapper() {
			return this.group.getHttpCodeStatusMapper();
		}

		@Override
		public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
			return this.group.getAdditionalPath();
		}

	}

}
