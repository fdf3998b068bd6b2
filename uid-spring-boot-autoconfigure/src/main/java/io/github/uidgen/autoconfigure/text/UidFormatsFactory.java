package io.github.uidgen.autoconfigure.text;

import java.util.Locale;
import java.util.Map;

import io.github.uidgen.UidLayout;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.UidFormats;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * Turns {@code uid.text.*} into the application's {@link UidFormats}, refusing a value where it is read with the
 * property's name and the reason. Keys are never repeated in a message.
 */
final class UidFormatsFactory {

	/** The version written for a previous key whose texts carry none. */
	static final String NO_VERSION = "none";

	private UidFormatsFactory() {
	}

	static UidFormats create(UidTextProperties properties, UidLayout layout) {
		UidFormats.Builder builder = UidFormats.builder(layout)
			.fixedWidth(properties.isFixedWidth())
			.zone(properties.getZone())
			.opaque(opaque(properties.getOpaque(), (layout != null) ? layout.totalBits() : 63));
		String form = properties.getForm().name().toLowerCase(Locale.ROOT);
		try {
			return builder.defaultForm(form, properties.getPrefix(), properties.getSuffix()).build();
		}
		catch (IllegalArgumentException ex) {
			String property = (properties.getForm() == UidTextProperties.Form.OPAQUE)
					? UidTextProperties.PREFIX + ".opaque.key" : UidTextProperties.PREFIX + ".form";
			throw new InvalidConfigurationPropertyValueException(property,
					property.endsWith(".key") ? null : form,
					ex.getMessage() + (property.endsWith(".key") ? "; set " + property
							+ " to a base64 key (openssl rand -base64 32) or choose another " + UidTextProperties.PREFIX
							+ ".form" : ""));
		}
	}

	private static OpaqueUidFormat opaque(UidTextProperties.Opaque settings, int bits) {
		if (!StringUtils.hasText(settings.getKey())) {
			if (!settings.getPreviousKeys().isEmpty()) {
				throw new InvalidConfigurationPropertyValueException(UidTextProperties.PREFIX + ".opaque.key", null,
						"previous keys are set but no current key; the current key makes new texts");
			}
			return null;
		}
		OpaqueUidFormat.Builder builder;
		try {
			builder = OpaqueUidFormat.builder(bits);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(UidTextProperties.PREFIX + ".opaque.key", hidden(),
					ex.getMessage());
		}
		add(builder, UidTextProperties.PREFIX + ".opaque.key", settings.getKeyVersion(), settings.getKey());
		for (Map.Entry<String, String> previous : settings.getPreviousKeys().entrySet()) {
			String version = NO_VERSION.equals(previous.getKey()) ? "" : previous.getKey();
			add(builder, UidTextProperties.PREFIX + ".opaque.previous-keys." + previous.getKey(), version,
					previous.getValue());
		}
		return builder.build();
	}

	private static void add(OpaqueUidFormat.Builder builder, String property, String version, String key) {
		try {
			builder.key(version, OpaqueUidFormat.decodeKey(key));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, hidden(), ex.getMessage());
		}
	}

	/** Stands for a key in a failure report, which must not repeat it. */
	private static String hidden() {
		return "(hidden)";
	}

}
