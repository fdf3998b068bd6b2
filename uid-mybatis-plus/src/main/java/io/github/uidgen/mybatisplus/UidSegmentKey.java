package io.github.uidgen.mybatisplus;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives the entities of a class their {@code ASSIGN_ID} keys from the segment generator of their own key (Leaf's
 * {@code biz_tag}), so orders and invoices count 1, 2, 3, ... independently. Needs {@code uid.generator=segment};
 * entities without it get the numbers of {@code uid.segment.key}.
 *
 * <pre class="code">
 * &#64;UidSegmentKey("order")
 * &#64;TableName("t_order")
 * class Order {
 *
 * 	&#64;TableId(type = IdType.ASSIGN_ID)
 * 	private Long id;
 *
 * }
 * </pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface UidSegmentKey {

	/**
	 * The segment key: 1 to 128 letters, digits, {@code _}, {@code -}, {@code .} or {@code :}.
	 * @return the key
	 */
	String value();

}
