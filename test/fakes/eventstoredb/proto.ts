import anyPb from 'google-protobuf/google/protobuf/any_pb.js';
import emptyPb from 'google-protobuf/google/protobuf/empty_pb.js';
import featuresGrpc from '@eventstore/db-client/generated/serverfeatures_grpc_pb.js';
import featuresPb from '@eventstore/db-client/generated/serverfeatures_pb.js';
import sharedPb from '@eventstore/db-client/generated/shared_pb.js';
import statusPb from '@eventstore/db-client/generated/status_pb.js';
import streamsGrpc from '@eventstore/db-client/generated/streams_grpc_pb.js';
import streamsPb from '@eventstore/db-client/generated/streams_pb.js';

/**
 * The service definitions and messages the client itself was generated from, so the double cannot
 * drift from the wire format the client speaks. They are CommonJS with no named exports ESM can see.
 */
export const { ReadReq, ReadResp, AppendReq, AppendResp, BatchAppendReq, BatchAppendResp } = streamsPb;
export const { Empty, UUID, StreamIdentifier, AllStreamPosition, WrongExpectedVersion, MaximumAppendSizeExceeded, BadRequest: BadRequestDetails } = sharedPb;
export const { SupportedMethods, SupportedMethod } = featuresPb;
export const { Status } = statusPb;
export const { Any } = anyPb;
export const ProtobufEmpty = emptyPb.Empty;
export const { StreamsService } = streamsGrpc;
export const { ServerFeaturesService } = featuresGrpc;

export type ReadRequest = InstanceType<typeof ReadReq>;
export type ReadResponse = InstanceType<typeof ReadResp>;
export type AppendRequest = InstanceType<typeof AppendReq>;
export type AppendResponse = InstanceType<typeof AppendResp>;
export type BatchAppendRequest = InstanceType<typeof BatchAppendReq>;
export type BatchAppendResponse = InstanceType<typeof BatchAppendResp>;
