package io.github.uidgen.worker.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shipped DDL of one database, with the configured table name put in place of the default one; used both to
 * create a table and to tell the user what to run when it is missing.
 */
final class SchemaScript {

	static final String DEFAULT_LEASE_TABLE = "UID_WORKER_LEASE";

	static final String DEFAULT_WORKER_NODE_TABLE = "WORKER_NODE";

	/** The claim history of {@link #DEFAULT_LEASE_TABLE}, named as {@link TableName#claimHistoryOf} names it. */
	static final String DEFAULT_CLAIM_TABLE = "UID_WORKER_LEASE_CLAIM";

	private SchemaScript() {
	}

	/**
	 * Returns the {@code CREATE TABLE} statement for one table, renamed as configured.
	 * @param dialect the database
	 * @param defaultTable the name the shipped DDL uses
	 * @param table the configured name, already validated
	 * @return the statement, without a trailing semicolon
	 */
	static String createTable(SqlDialect dialect, String defaultTable, String table) {
		Pattern name = Pattern.compile("\\b" + defaultTable + "\\b");
		for (String statement : statements(load(dialect))) {
			if (name.matcher(statement).find()) {
				return name.matcher(statement).replaceAll(Matcher.quoteReplacement(table));
			}
		}
		throw new IllegalStateException("No DDL for " + defaultTable + " in " + dialect.schemaResource());
	}

	private static String load(SqlDialect dialect) {
		try (InputStream in = SchemaScript.class.getResourceAsStream(dialect.schemaResource())) {
			if (in == null) {
				throw new IllegalStateException("Missing resource " + dialect.schemaResource() + " next to "
						+ SchemaScript.class.getName());
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String[] statements(String script) {
		StringBuilder code = new StringBuilder();
		for (String line : script.split("\n")) {
			if (!line.trim().startsWith("--")) {
				code.append(line).append('\n');
			}
		}
		String[] parts = code.toString().split(";");
		for (int i = 0; i < parts.length; i++) {
			parts[i] = parts[i].strip();
		}
		return parts;
	}

}
