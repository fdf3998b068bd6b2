package io.github.uidgen.autoconfigure.text;

import java.util.Map;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a {@code uid.text.opaque.*} setting the binder could not bind, before Spring Boot's own
 * {@code BindFailureAnalyzer} does: that one prints the value, and the value of a key setting is a secret (an operator
 * who leaves out the version writes {@code uid.text.opaque.previous-keys=<key>}, a scalar where a map is expected).
 * The analysis names the property, where it was set and what shape it takes, and never the value or the binder's
 * reason, whose messages may repeat the value ({@code ConversionFailedException} does).
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class OpaqueKeyBindFailureAnalyzer implements FailureAnalyzer {

	private static final ConfigurationPropertyName OPAQUE = ConfigurationPropertyName
		.of(UidTextProperties.PREFIX + ".opaque");

	private static final String PREVIOUS_KEYS = UidTextProperties.PREFIX + ".opaque.previous-keys";

	@Override
	public FailureAnalysis analyze(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof BindException bind && isOpaque(bind)) {
				return analyze(bind);
			}
		}
		return null;
	}

	private static boolean isOpaque(BindException bind) {
		ConfigurationProperty property = bind.getProperty();
		return isOpaque(bind.getName()) || (property != null && isOpaque(property.getName()));
	}

	private static boolean isOpaque(ConfigurationPropertyName name) {
		return name != null && (OPAQUE.equals(name) || OPAQUE.isAncestorOf(name));
	}

	private static FailureAnalysis analyze(BindException bind) {
		ConfigurationProperty property = bind.getProperty();
		String name = (property != null) ? property.getName().toString() : bind.getName().toString();
		Origin origin = (property != null) ? Origin.from(property) : null;
		String shape = shape(bind);
		StringBuilder description = new StringBuilder("Failed to bind " + name + ": " + shape + "\n\n    Property: "
				+ name + "\n    Value: (not shown: keys are secret)");
		if (origin != null) {
			description.append("\n    Origin: ").append(origin);
		}
		return new FailureAnalysis(description.toString(), action(bind), bind);
	}

	/** What the property takes, from the type bound: the binder's own reason may repeat the value. */
	private static String shape(BindException bind) {
		Class<?> type = bind.getTarget().getType().resolve(Object.class);
		if (Map.class.isAssignableFrom(type)) {
			return "it takes a map of key versions to keys, not a single value: each key under the one "
					+ "letter or digit its texts start with";
		}
		if (type == UidTextProperties.Opaque.class) {
			return "it is the group of the opaque form's settings (key, key-version, previous-keys, tweak, "
					+ "untweaked-versions), not a value";
		}
		if (type == String.class) {
			return "it takes one value, not a list or a map";
		}
		return "its value cannot be read as " + type.getSimpleName() + " (the binder's reason is not shown: it may "
				+ "repeat the value)";
	}

	private static String action(BindException bind) {
		Class<?> type = bind.getTarget().getType().resolve(Object.class);
		if (Map.class.isAssignableFrom(type)) {
			return "Write each previous key under its version: " + PREVIOUS_KEYS + ".b=<key> (as an environment "
					+ "variable UID_TEXT_OPAQUE_PREVIOUSKEYS_B, in YAML previous-keys: {b: <key>}); the version 'none' "
					+ "for texts without one";
		}
		return "Set uid.text.opaque.key to one base64 key of 16, 24 or 32 random bytes (openssl rand -base64 32), "
				+ "uid.text.opaque.key-version to one letter or digit, and each previous key under its version ("
				+ PREVIOUS_KEYS + ".b=<key>)";
	}

}
