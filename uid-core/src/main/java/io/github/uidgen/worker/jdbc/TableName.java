package io.github.uidgen.worker.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;

/**
 * Configured table names: checked before they are put into SQL (plain identifiers only, optionally qualified by a
 * schema, so no name can inject SQL), and looked up in the database's metadata.
 */
final class TableName {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}(\\.[A-Za-z_][A-Za-z0-9_]{0,63})?");

	private static final String CLAIM_SUFFIX = "_CLAIM";

	private static final int MAX_STORED_LENGTH = 63;

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

	/**
	 * Returns the name of a lease table's claim history table: the lease table's name with {@code _CLAIM} appended
	 * ({@code _claim} to a name in lower case, which MySQL on Linux tells apart), in the same schema. The lease table's own name is cut short first where the two would not fit in 63
	 * characters, the longest name PostgreSQL keeps whole.
	 * @param leaseTable a name that passed {@link #require}
	 * @return the history table's name
	 */
	static String claimHistoryOf(String leaseTable) {
		int dot = leaseTable.indexOf('.');
		String name = leaseTable.substring(dot + 1);
		String base = (name.length() + CLAIM_SUFFIX.length() <= MAX_STORED_LENGTH) ? name
				: name.substring(0, MAX_STORED_LENGTH - CLAIM_SUFFIX.length());
		String suffix = name.equals(name.toLowerCase(Locale.ROOT)) ? CLAIM_SUFFIX.toLowerCase(Locale.ROOT) : CLAIM_SUFFIX;
		return leaseTable.substring(0, dot + 1) + base + suffix;
	}

	/**
	 * Tells whether the database lists a table of this name, in the schema (or MySQL database) it is qualified with,
	 * else in the connection's current one.
	 * @param connection a connection to the database
	 * @param table a name that passed {@link #require}
	 * @return whether the table exists
	 */
	static boolean exists(Connection connection, String table) throws SQLException {
		return listed(connection, table, false).contains(table.toLowerCase(Locale.ROOT));
	}

	/**
	 * Lists, in one read of the database's metadata, the tables whose names begin with this one's (it and its claim
	 * history, for a lease table), where {@link #exists} would look for it.
	 * @param connection a connection to the database
	 * @param table a name that passed {@link #require}
	 * @return their names, qualified as the given one is, in lower case
	 */
	static Set<String> namedAfter(Connection connection, String table) throws SQLException {
		return listed(connection, table, true);
	}

	private static Set<String> listed(Connection connection, String table, boolean orLonger) throws SQLException {
		DatabaseMetaData metaData = connection.getMetaData();
		int dot = table.indexOf('.');
		String qualifier = (dot >= 0) ? stored(metaData, table.substring(0, dot)) : null;
		String name = stored(metaData, table.substring(dot + 1));
		String escape = metaData.getSearchStringEscape();
		String pattern = escaped(name, escape) + (orLonger ? "%" : "");
		// Asked of the one place the name resolves to: asked of every one, MySQL Connector/J lists the schemas and
		// then the tables of each, a statement apiece (six on a fresh MariaDB), and every start asks.
		String catalog = null;
		String schemaPattern = null;
		if (metaData.supportsSchemasInTableDefinitions()) {
			String schema = (qualifier != null) ? qualifier : connection.getSchema();
			schemaPattern = (schema != null) ? escaped(schema, escape) : null;
		}
		else if (metaData.supportsCatalogsInTableDefinitions()) {
			catalog = (qualifier != null) ? qualifier : connection.getCatalog();
		}
		String prefix = (dot >= 0) ? table.substring(0, dot + 1) : "";
		Set<String> names = new HashSet<>();
		try (ResultSet tables = metaData.getTables(catalog, schemaPattern, pattern, null)) {
			while (tables.next()) {
				String found = tables.getString("TABLE_NAME");
				if (found != null && (orLonger || name.equalsIgnoreCase(found)) && inPlace(connection, qualifier,
						tables.getString("TABLE_CAT"), tables.getString("TABLE_SCHEM"))) {
					names.add((prefix + found).toLowerCase(Locale.ROOT));
				}
			}
		}
		return names;
	}

	/**
	 * Whether a table listed in a catalog and schema is where an unquoted name resolves: MySQL calls its databases
	 * catalogs, PostgreSQL qualifies with schemas.
	 */
	private static boolean inPlace(Connection connection, String qualifier, String catalog, String schema)
			throws SQLException {
		if (qualifier != null) {
			return qualifier.equalsIgnoreCase(catalog) || qualifier.equalsIgnoreCase(schema);
		}
		String currentSchema = connection.getSchema();
		if (currentSchema != null) {
			return currentSchema.equalsIgnoreCase(schema);
		}
		return catalog == null || catalog.equalsIgnoreCase(connection.getCatalog());
	}

	/** A name as a metadata search pattern that matches it alone. */
	private static String escaped(String name, String escape) {
		return (escape != null) ? name.replace("_", escape + "_") : name;
	}

	/** An unquoted identifier as the database stores it. */
	private static String stored(DatabaseMetaData metaData, String identifier) throws SQLException {
		if (metaData.storesLowerCaseIdentifiers()) {
			return identifier.toLowerCase(Locale.ROOT);
		}
		if (metaData.storesUpperCaseIdentifiers()) {
			return identifier.toUpperCase(Locale.ROOT);
		}
		return identifier;
	}

}
