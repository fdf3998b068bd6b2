package io.github.uidgen.autoconfigure.jackson;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the application's JSON mapper writes IDs.
 */
@ConfigurationProperties(UidJacksonProperties.PREFIX)
public class UidJacksonProperties {

	/** Prefix of the properties. */
	public static final String PREFIX = "uid.jackson";

	/**
	 * Whether to write every long and Long as a JSON string, so JavaScript clients keep all digits of IDs above
	 * 2^53; without it only properties annotated with @UidAsString are.
	 */
	private boolean writeLongsAsStrings = false;

	public boolean isWriteLongsAsStrings() {
		return this.writeLongsAsStrings;
	}

	public void setWriteLongsAsStrings(boolean writeLongsAsStrings) {
		this.writeLongsAsStrings = writeLongsAsStrings;
	}

}
