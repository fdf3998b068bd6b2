package io.github.uidgen.shardingsphere;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.jdbc.core.connection.ShardingSphereConnection;
import org.apache.shardingsphere.infra.binder.context.statement.SQLStatementContext;
import org.apache.shardingsphere.infra.binder.engine.SQLBindEngine;
import org.apache.shardingsphere.infra.hint.HintValueContext;
import org.apache.shardingsphere.infra.metadata.ShardingSphereMetaData;
import org.apache.shardingsphere.infra.metadata.database.ShardingSphereDatabase;
import org.apache.shardingsphere.infra.route.context.RouteContext;
import org.apache.shardingsphere.infra.route.context.RouteMapper;
import org.apache.shardingsphere.infra.route.context.RouteUnit;
import org.apache.shardingsphere.infra.route.engine.SQLRouteEngine;
import org.apache.shardingsphere.infra.session.query.QueryContext;
import org.apache.shardingsphere.parser.rule.SQLParserRule;
import org.apache.shardingsphere.sql.parser.statement.core.statement.SQLStatement;

/**
 * Asks ShardingSphere itself where a statement goes: parses, binds and routes it with the data source's own
 * metadata and rules, as its driver does before executing, and answers the route units as {@code ds.table}.
 */
final class ShardingRoutes {

	private ShardingRoutes() {
	}

	static Set<String> of(DataSource dataSource, String sql, Object... params) {
		try (Connection connection = dataSource.getConnection()) {
			ShardingSphereConnection shardingSphere = connection.unwrap(ShardingSphereConnection.class);
			ShardingSphereMetaData metaData = shardingSphere.getContextManager().getMetaDataContexts().getMetaData();
			String databaseName = shardingSphere.getCurrentDatabaseName();
			ShardingSphereDatabase database = metaData.getDatabase(databaseName);
			SQLStatement statement = metaData.getGlobalRuleMetaData()
				.getSingleRule(SQLParserRule.class)
				.getSQLParserEngine(database.getProtocolType())
				.parse(sql, false);
			HintValueContext hints = new HintValueContext();
			List<Object> parameters = List.of(params);
			SQLStatementContext context = new SQLBindEngine(metaData, databaseName, hints).bind(statement, parameters);
			QueryContext query = new QueryContext(context, sql, parameters, hints,
					shardingSphere.getDatabaseConnectionManager().getConnectionContext(), metaData);
			RouteContext route = new SQLRouteEngine(database.getRuleMetaData().getRules(), metaData.getProps())
				.route(query, metaData.getGlobalRuleMetaData(), database);
			Set<String> nodes = new TreeSet<>();
			for (RouteUnit unit : route.getRouteUnits()) {
				for (RouteMapper table : unit.getTableMappers()) {
					nodes.add(unit.getDataSourceMapper().getActualName() + "." + table.getActualName());
				}
			}
			return nodes;
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
