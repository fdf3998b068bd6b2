package io.github.uidgen.samples.sharded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Creates the sample's two databases and their tables on the MariaDB server when they are missing, before
 * ShardingSphere first connects (uid binds its algorithms, which opens that connection, only once every bean
 * exists), and hands their names to {@code sharding.yaml} through the system properties its placeholders read.
 */
@Component
class ShardedSchema implements InitializingBean {

	/** Years with an order table each: the {@code UID_INTERVAL} algorithm's range in {@code sharding.yaml}. */
	static final int FIRST_YEAR = 2025;

	static final int LAST_YEAR = 2034;

	private final String serverUrl;

	private final String user;

	private final String password;

	private final List<String> databases;

	ShardedSchema(@Value("${sample.server.url}") String serverUrl, @Value("${sample.server.username}") String user,
			@Value("${sample.server.password:}") String password, @Value("${sample.databases}") List<String> databases) {
		this.serverUrl = serverUrl;
		this.user = user;
		this.password = password;
		this.databases = databases;
	}

	@Override
	public void afterPropertiesSet() throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.serverUrl, this.user, this.password);
				Statement statement = connection.createStatement()) {
			for (int i = 0; i < this.databases.size(); i++) {
				String database = this.databases.get(i);
				statement.execute("CREATE DATABASE IF NOT EXISTS " + database);
				for (int year = FIRST_YEAR; year <= LAST_YEAR; year++) {
					statement.execute("CREATE TABLE IF NOT EXISTS " + database + ".t_order_" + year
							+ " (id BIGINT PRIMARY KEY, item VARCHAR(64) NOT NULL)");
				}
				for (int table = 0; table < 2; table++) {
					statement.execute("CREATE TABLE IF NOT EXISTS " + database + ".t_item_" + table
							+ " (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
				}
				System.setProperty("uid.sample.ds_" + i, database);
			}
		}
	}

}
