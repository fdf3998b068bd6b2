package io.github.uidgen.shardingsphere;

import java.util.Collection;
import java.util.Properties;
import java.util.Set;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidException;
import io.github.uidgen.segment.SegmentUidGenerator;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;

/**
 * The key generator of type {@code UID_SEGMENT}: dense keys 1, 2, 3, ... of one segment key (Leaf's
 * {@code biz_tag}) from the application's segment generators ({@code uid.generator=segment}), one per row of a
 * multi-row {@code INSERT}.
 *
 * <pre>
 * keyGenerators:
 *   order-numbers:
 *     type: UID_SEGMENT
 *     props:
 *       key: order
 * </pre>
 */
public final class UidSegmentKeyGenerateAlgorithm implements KeyGenerateAlgorithm, BindableAlgorithm {

	/** The type to write in the YAML. */
	public static final String TYPE = "UID_SEGMENT";

	/** The segment key whose numbers the keys are. */
	public static final String KEY = "key";

	private final BindingSlot slot = new BindingSlot(TYPE);

	private String key;

	private volatile SegmentUidGenerator generator;

	@Override
	public void init(Properties props) {
		AlgorithmProperties properties = new AlgorithmProperties(this, props, Set.of(KEY));
		String value = properties.required(KEY, "order");
		if (!value.matches("[A-Za-z0-9_.:-]{1,128}")) {
			throw properties.fail("property 'key' = '" + value + "' is not a segment key; use 1 to 128 letters, "
					+ "digits, '_', '-', '.' or ':'");
		}
		this.key = value;
	}

	@Override
	public Collection<Long> generateKeys(AlgorithmSQLContext context, int keyGenerateCount) {
		UidSource source = this.slot.require("generate keys for ", context.getTableName());
		SegmentUidGenerator numbers = this.generator;
		if (numbers == null) {
			numbers = source.segmentGenerators().forKey(this.key);
		}
		return UidKeyGenerateAlgorithm.keys(numbers, keyGenerateCount);
	}

	@Override
	public void bind(UidSource source, String name) {
		if (source.segmentGenerators() == null) {
			throw new IllegalStateException("The ShardingSphere key generator '" + name + "' of type UID_SEGMENT "
					+ "(key '" + this.key + "') needs the segment generator, and " + source.name() + " has none; "
					+ "set uid.generator=segment, or use type UID.");
		}
		SegmentUidGenerator numbers;
		try {
			numbers = source.segmentGenerators().forKey(this.key);
		}
		catch (InvalidSettingException ex) {
			throw new IllegalStateException("The ShardingSphere key generator '" + name + "': " + ex.getMessage(), ex);
		}
		catch (UidException ex) {
			throw new IllegalStateException("The ShardingSphere key generator '" + name + "' cannot claim the first "
					+ "segment of key '" + this.key + "': " + ex.getMessage(), ex);
		}
		this.slot.bind(source, name);
		this.generator = numbers;
	}

	@Override
	public void unbind(UidSource source) {
		this.slot.unbind(source);
		this.generator = null;
	}

	@Override
	public String getType() {
		return TYPE;
	}

}
