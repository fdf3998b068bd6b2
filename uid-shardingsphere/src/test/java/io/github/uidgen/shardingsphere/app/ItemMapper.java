package io.github.uidgen.shardingsphere.app;

import java.util.List;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** Plain MyBatis inserts into the table sharded by UID_MOD: with IDs filled by the interceptor, and without. */
@Mapper
public interface ItemMapper {

	@Insert("INSERT INTO t_item (id, name) VALUES (#{id}, #{name})")
	int insert(Item item);

	@Insert("<script>INSERT INTO t_item (id, name) VALUES <foreach collection='list' item='i' separator=','>"
			+ "(#{i.id}, #{i.name})</foreach></script>")
	int insertAll(List<Item> items);

	/** Leaves the ID out: ShardingSphere's key generator of the table fills one per row. */
	@Insert("<script>INSERT INTO t_item (name) VALUES <foreach collection='names' item='n' separator=','>(#{n})"
			+ "</foreach></script>")
	int insertNames(@Param("names") List<String> names);

	@Select("SELECT COUNT(*) FROM t_item WHERE name LIKE #{prefix}")
	long countNamed(String prefix);

}
