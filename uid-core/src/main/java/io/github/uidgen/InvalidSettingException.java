package io.github.uidgen;

/**
 * Thrown when a generator setting other than the layout is refused (ring size, padding factor, a duration); it
 * names the setting, the refused value and the fix.
 */
public class InvalidSettingException extends UidException {

	private static final long serialVersionUID = 1L;

	private final String setting;

	private final String value;

	private final String fix;

	public InvalidSettingException(String setting, Object value, String fix) {
		super("Invalid " + setting + " '" + value + "': " + fix);
		this.setting = setting;
		this.value = String.valueOf(value);
		this.fix = fix;
	}

	/**
	 * Returns the name of the setting as the builders spell it, for example {@code boostPower}.
	 * @return the setting
	 */
	public String getSetting() {
		return this.setting;
	}

	public String getValue() {
		return this.value;
	}

	public String getFix() {
		return this.fix;
	}

}
