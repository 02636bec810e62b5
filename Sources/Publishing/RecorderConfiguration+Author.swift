package import Settings

extension RecorderConfiguration {
    /// Who makes the posts, as a post's metadata names them.
    package var postAuthor: PostMetadata.Author {
        let author = author
        return PostMetadata.Author(id: author.id, name: author.name)
    }
}
