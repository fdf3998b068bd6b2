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
 * property's name and the reason. A key, or any part of one, is never repeated: key settings are refused with a
 * {@link UidTextPropertyException}, whose analysis prints the property and the key's version only.
 */
final class UidFormatsFactory {

	/** The version written for a previous key whose texts carry none. */
	static final String NO_VERSION = "none";

	private static final String KEY = UidTextProperties.PREFIX + ".opaque.key";

	private static final String NEW_KEY = "Set " + KEY + " to a base64 key of 16, 24 or 32 random bytes (openssl "
			+ "rand -base64 32)";

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
			if (properties.getForm() == UidTextProperties.Form.OPAQUE) {
				throw new UidTextPropertyException(KEY, ex.getMessage(), NEW_KEY + ", or choose another "
						+ UidTextProperties.PREFIX + ".form");
			}
			throw new InvalidConfigurationPropertyValueException(UidTextProperties.PREFIX + ".form", form,
					ex.getMessage());
		}
	}

	private static OpaqueUidFormat opaque(UidTextProperties.Opaque settings, int bits) {
		if (!StringUtils.hasText(settings.getKey())) {
			if (!settings.getPreviousKeys().isEmpty()) {
				throw new UidTextPropertyException(KEY, "Previous keys are set but no current key; the current key "
						+ "makes new texts", NEW_KEY + " (a new key with a new " + KEY + "-version, when rotating)");
			}
			return null;
		}
		OpaqueUidFormat.Builder builder;
		try {
			builder = OpaqueUidFormat.builder(bits);
		}
		catch (IllegalArgumentException ex) {
			throw new UidTextPropertyException(KEY, ex.getMessage(), "Use another " + UidTextProperties.PREFIX
					+ ".form, or a layout of at least 20 bits");
		}
		add(builder, KEY, settings.getKeyVersion(), settings.getKey());
		for (Map.Entry<String, String> previous : settings.getPreviousKeys().entrySet()) {
			add(builder, UidTextProperties.PREFIX + ".opaque.previous-keys." + previous.getKey(),
					version(previous.getKey()), previous.getValue());
		}
		for (String untweaked : settings.getUntweakedVersions()) {
			builder.writtenWithoutTweak(version(untweaked));
		}
		try {
			return builder.build().tweaked(settings.getTweak());
		}
		catch (IllegalArgumentException ex) {
			throw new UidTextPropertyException(UidTextProperties.PREFIX + ".opaque.untweaked-versions",
					ex.getMessage(), "List there only versions of " + UidTextProperties.PREFIX
							+ ".opaque.previous-keys (none for texts without a version)");
		}
	}

	private static String lowerFirst(String message) {
		return Character.toLowerCase(message.charAt(0)) + message.substring(1);
	}

	private static String version(String configured) {
		return NO_VERSION.equals(configured) ? "" : configured;
	}

	private static void add(OpaqueUidFormat.Builder builder, String property, String version, String key) {
		try {
			builder.key(version, OpaqueUidFormat.decodeKey(key));
		}
		catch (IllegalArgumentException ex) {
			// The core's messages name lengths and versions, never a piece of the key.
			throw new UidTextPropertyException(property, "The key of version '"
					+ (version.isEmpty() ? NO_VERSION : version) + "' is refused: " + lowerFirst(ex.getMessage()), NEW_KEY
					+ "; a key version is one letter or digit, or empty for texts without one");
		}
	}

}
