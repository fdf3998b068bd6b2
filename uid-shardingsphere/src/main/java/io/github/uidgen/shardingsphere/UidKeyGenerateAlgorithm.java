package io.github.uidgen.shardingsphere;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import io.github.uidgen.UidGenerator;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;

/**
 * The key generator of type {@code UID}: the keys ShardingSphere fills into an {@code INSERT} that leaves the key
 * column out come from the application's {@link UidGenerator}, one per row of a multi-row {@code INSERT}. Unlike
 * ShardingSphere's {@code SNOWFLAKE}, whose worker ID is set by hand, the worker ID is leased, renewed and
 * protected by uid's high-water mark.
 *
 * <pre>
 * keyGenerators:
 *   uid:
 *     type: UID
 * </pre>
 *
 * It takes no properties; the generator is the application's (see {@link UidShardingSphere}).
 */
public final class UidKeyGenerateAlgorithm implements KeyGenerateAlgorithm, BindableAlgorithm {

	/** The type to write in the YAML. */
	public static final String TYPE = "UID";

	private final BindingSlot slot = new BindingSlot(TYPE);

	@Override
	public void init(Properties props) {
		new AlgorithmProperties(this, props, Set.of());
	}

	@Override
	public Collection<Long> generateKeys(AlgorithmSQLContext context, int keyGenerateCount) {
		return keys(this.slot.require("generate keys for ", context.getTableName()).uidGenerator(), keyGenerateCount);
	}

	/**
	 * Returns the next IDs of a generator, one per row of an {@code INSERT}.
	 * @param generator the generator
	 * @param count the rows
	 * @return as many IDs
	 */
	static List<Long> keys(UidGenerator generator, int count) {
		List<Long> keys = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			keys.add(generator.getUID());
		}
		return keys;
	}

	@Override
	public void bind(UidSource source, String name) {
		if (source.uidGenerator() == null) {
			throw new IllegalStateException("The ShardingSphere key generator '" + name + "' of type UID needs the "
					+ "application's UidGenerator, and " + source.name() + " has none. Add the uid starter with "
					+ "uid.enabled=true (the default) and a worker-ID assigner, or declare a UidGenerator bean; or "
					+ "give the table another key generator.");
		}
		this.slot.bind(source, name);
	}

	@Override
	public void unbind(UidSource source) {
		this.slot.unbind(source);
	}

	@Override
	public String getType() {
		return TYPE;
	}

}
