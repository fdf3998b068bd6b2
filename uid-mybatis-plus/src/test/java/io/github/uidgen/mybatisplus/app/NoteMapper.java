package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;

/** The MyBatis-Plus mapper of {@link Note}. */
@Mapper
public interface NoteMapper extends BaseMapper<Note> {

}
