package io.github.uidgen.samples.sharded;

import java.util.List;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

/** Items through plain MyBatis: with the ID filled by uid's interceptor, or left to ShardingSphere's UID key generator. */
@Mapper
public interface ItemMapper {

	@Insert("INSERT INTO t_item (id, name) VALUES (#{id}, #{name})")
	int insert(Item item);

	@Insert("<script>INSERT INTO t_item (name) VALUES <foreach collection='names' item='n' separator=','>(#{n})"
			+ "</foreach></script>")
	int insertNames(@Param("names") List<String> names);

}
