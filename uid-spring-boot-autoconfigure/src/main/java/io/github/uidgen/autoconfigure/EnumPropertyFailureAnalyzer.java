package io.github.uidgen.autoconfigure;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains an unknown name in an enumerated {@code uid.*} property (generator, assigner, policies, time unit), listing
 * the allowed values as the documentation spells them. Runs before Spring Boot's general binding analyzer, which
 * handles every other binding failure.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class EnumPropertyFailureAnalyzer extends UidFailureAnalyzer<BindException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = cause.getName().toString();
		Class<?> type = cause.getTarget().getType().resolve();
		if (!name.startsWith(UidProperties.PREFIX + ".") || type == null || !type.isEnum()) {
			return null;
		}
		String allowed = Arrays.stream(type.getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.collect(Collectors.joining(", "));
		ConfigurationProperty property = cause.getProperty();
		String value = (property != null) ? String.valueOf(property.getValue()) : null;
		String description = describe(name + " does not accept '" + value + "'; it takes one of: " + allowed + ".",
				name, value);
		if (property != null && property.getOrigin() != null) {
			description += "\n    Origin: " + property.getOrigin();
		}
		return new FailureAnalysis(description, "Set " + name + " to one of: " + allowed + ".", cause);
	}

}
