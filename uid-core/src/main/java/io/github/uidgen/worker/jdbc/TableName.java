package io.github.uidgen.worker.jdbc;

import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;

/**
 * Checks configured table names before they are put into SQL: plain identifiers only, optionally qualified by a
 * schema, so no name can inject SQL.
 */
final class TableName {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}(\\.[A-Za-z_][A-Za-z0-9_]{0,63})?");

	private TableName() {
	}

	/**
	 * Returns the name when it is a valid table name.
	 * @param setting the setting it came from, for the message
	 * @param name the configured name
	 * @return the name
	 * @throws InvalidSettingException otherwise
	 */
	static String require(String setting, String name) {
		if (name == null || !IDENTIFIER.matcher(name).matches()) {
			throw new InvalidSettingException(setting, name, "use a table name of letters, digits and underscores "
					+ "(starting with a letter or underscore, at most 64), optionally prefixed by a schema and a dot");
		}
		return name;
	}

}
