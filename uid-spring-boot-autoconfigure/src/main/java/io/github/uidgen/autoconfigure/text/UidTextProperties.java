package io.github.uidgen.autoconfigure.text;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How IDs are written as text where no form is named: by {@code @UidAsString} without a form, by the endpoint, by
 * Spring MVC parameters annotated {@code @UidAsString}.
 */
@ConfigurationProperties(UidTextProperties.PREFIX)
public class UidTextProperties {

	/** Prefix of the properties. */
	public static final String PREFIX = "uid.text";

	/**
	 * Form of IDs as text where none is named: decimal, radix62 (0-9A-Za-z), radix36 (0-9a-z, read in either case),
	 * readable (time-worker-sequence) or opaque (hides order, time and volume; needs uid.text.opaque.key).
	 */
	private Form form = Form.DECIMAL;

	/**
	 * Whether radix62 and radix36 texts are padded to the width of the layout's largest ID, so that they sort as the
	 * IDs do.
	 */
	private boolean fixedWidth = false;

	/**
	 * Zone of the readable form's time; with a zone other than UTC its offset is written after the time.
	 */
	private ZoneId zone = ZoneOffset.UTC;

	/**
	 * Text before every ID of the default form, for example ORD_; checked on reading.
	 */
	private String prefix = "";

	/**
	 * Text after every ID of the default form; checked on reading.
	 */
	private String suffix = "";

	private final Opaque opaque = new Opaque();

	public Form getForm() {
		return this.form;
	}

	public void setForm(Form form) {
		this.form = form;
	}

	public boolean isFixedWidth() {
		return this.fixedWidth;
	}

	public void setFixedWidth(boolean fixedWidth) {
		this.fixedWidth = fixedWidth;
	}

	public ZoneId getZone() {
		return this.zone;
	}

	public void setZone(ZoneId zone) {
		this.zone = zone;
	}

	public String getPrefix() {
		return this.prefix;
	}

	public void setPrefix(String prefix) {
		this.prefix = prefix;
	}

	public String getSuffix() {
		return this.suffix;
	}

	public void setSuffix(String suffix) {
		this.suffix = suffix;
	}

	public Opaque getOpaque() {
		return this.opaque;
	}

	/**
	 * The text forms.
	 */
	public enum Form {

		/** Decimal digits. */
		DECIMAL,

		/** Radix 62, 0-9A-Za-z. */
		RADIX62,

		/** Radix 36, 0-9a-z, read in either case. */
		RADIX36,

		/** The ID's time, worker and sequence spelled out. */
		READABLE,

		/** FF1 over the ID's bits under uid.text.opaque.key. */
		OPAQUE

	}

	/**
	 * The keys of the opaque form.
	 */
	public static class Opaque {

		/**
		 * Key of the opaque form, in base64: 16, 24 or 32 random bytes (openssl rand -base64 32). No default; a
		 * shorter key is refused. Keep it secret, for example in an environment variable.
		 */
		private String key;

		/**
		 * One letter or digit that starts every text made with the key, so that the key can be rotated; empty for
		 * texts without a version.
		 */
		private String keyVersion = "";

		/**
		 * Earlier keys whose texts are still read, by the version their texts start with (empty key for texts
		 * without a version is written as the version "none").
		 */
		private Map<String, String> previousKeys = new LinkedHashMap<>();

		/**
		 * Tweak of the opaque form wherever a use names none (the default form, the endpoint, @UidAsString(OPAQUE)
		 * without a tweak): texts of one ID under different tweaks are unrelated, so uses with their own tweak cannot
		 * be matched with each other. Empty for none, what texts made before tweaks have.
		 */
		private String tweak = "";

		/**
		 * Versions of previous keys whose texts were all made without a tweak, before the uses took one: read without
		 * a tweak in every use ("none" for texts without a version). Take tweaks together with a new key-version
		 * and list the old one here, so that texts made before stay readable.
		 */
		private List<String> untweakedVersions = new ArrayList<>();

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

		public String getKeyVersion() {
			return this.keyVersion;
		}

		public void setKeyVersion(String keyVersion) {
			this.keyVersion = keyVersion;
		}

		public String getTweak() {
			return this.tweak;
		}

		public void setTweak(String tweak) {
			this.tweak = tweak;
		}

		public List<String> getUntweakedVersions() {
			return this.untweakedVersions;
		}

		public void setUntweakedVersions(List<String> untweakedVersions) {
			this.untweakedVersions = untweakedVersions;
		}

		public Map<String, String> getPreviousKeys() {
			return this.previousKeys;
		}

		public void setPreviousKeys(Map<String, String> previousKeys) {
			this.previousKeys = previousKeys;
		}

	}

}
