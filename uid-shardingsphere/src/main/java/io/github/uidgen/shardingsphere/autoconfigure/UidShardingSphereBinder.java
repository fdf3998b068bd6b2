package io.github.uidgen.shardingsphere.autoconfigure;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import io.github.uidgen.shardingsphere.UidShardingSphere;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;

/**
 * Binds the uid algorithms of every ShardingSphere {@code DataSource} bean to the context's generator once all
 * singletons exist (before runners and the web server take traffic), and unbinds them when the context closes.
 * Binding opens a connection, so a ShardingSphere YAML with a bad algorithm property fails the start.
 */
public final class UidShardingSphereBinder implements SmartInitializingSingleton, DisposableBean {

	private final ApplicationContext context;

	private final ObjectProvider<DataSource> dataSources;

	private final ObjectProvider<UidGenerator> uidGenerator;

	private final ObjectProvider<SegmentUidGenerators> segmentGenerators;

	private final List<UidShardingSphere.Binding> bindings = new ArrayList<>();

	/**
	 * Creates the binder of a context.
	 * @param context the context, named in messages
	 * @param dataSources its data sources; only ShardingSphere's are bound
	 * @param uidGenerator its generator, if any
	 * @param segmentGenerators its segment generators, if any
	 */
	public UidShardingSphereBinder(ApplicationContext context, ObjectProvider<DataSource> dataSources,
			ObjectProvider<UidGenerator> uidGenerator, ObjectProvider<SegmentUidGenerators> segmentGenerators) {
		this.context = context;
		this.dataSources = dataSources;
		this.uidGenerator = uidGenerator;
		this.segmentGenerators = segmentGenerators;
	}

	@Override
	public void afterSingletonsInstantiated() {
		String application = "the application context '" + this.context.getId() + "'";
		for (DataSource dataSource : this.dataSources.orderedStream().toList()) {
			try {
				if (UidShardingSphere.isShardingSphere(dataSource)) {
					this.bindings.add(UidShardingSphere.bind(dataSource, this.uidGenerator.getIfUnique(),
							this.segmentGenerators.getIfUnique(), application));
				}
			}
			catch (SQLException ex) {
				destroy();
				throw new IllegalStateException("Cannot bind uid's ShardingSphere algorithms of " + dataSource
						+ ": no connection could be opened (" + ex.getMessage() + ")", ex);
			}
			catch (RuntimeException ex) {
				destroy();
				throw ex;
			}
		}
	}

	/**
	 * Returns how many uid algorithms this context has bound.
	 * @return the count
	 */
	public int boundAlgorithms() {
		return this.bindings.stream().mapToInt(UidShardingSphere.Binding::size).sum();
	}

	@Override
	public void destroy() {
		this.bindings.forEach(UidShardingSphere.Binding::close);
		this.bindings.clear();
	}

}
